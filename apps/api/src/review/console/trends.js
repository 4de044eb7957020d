/* global document, window */
// Trends drawn with uPlot (served by the api from its npm package): attempts in doubt by age, how fast doubt
// ends by cause, the review queue's size and age, divergences per night. Each chart draws exactly what its
// endpoint answered; the chart object hangs on its element (`el.uplot`) for whoever needs to read it back.
import { errorBox, h, render } from './dom.js';
import { api } from './session.js';

const COLORS = ['#1f5fbf', '#b42318', '#1f6b36', '#8a5300', '#6b2fa5', '#0f7c86'];
const DASHES = { p50: [], p90: [6, 4], p99: [2, 3] };

let library;
/** uPlot's script and style sheet, loaded once from this origin (the page's policy allows nothing else). */
function loadUplot() {
  library ??= new Promise((resolve, reject) => {
    document.head.append(h('link', { rel: 'stylesheet', href: '/review/console/vendor/uPlot.min.css' }));
    document.head.append(h('script', { src: '/review/console/vendor/uPlot.iife.min.js', onload: () => resolve(window.uPlot), onerror: () => reject(new Error('the chart library did not load')) }));
  });
  return library;
}

export async function showTrends() {
  const status = h('div', { class: 'form-status', id: 'trends-status' });
  const panel = (id, title, note) => h('section', { class: 'card chart-card' }, h('h2', {}, title), h('p', { class: 'muted small' }, note), h('div', { id: `chart-${id}`, class: 'chart' }));
  render(
    h('div', { class: 'page-head' }, h('h1', {}, 'Trends')),
    status,
    h(
      'div',
      { class: 'charts' },
      panel('unknown-attempts', 'Unknown attempts by age', 'Attempts in doubt right now, by how long they have been unknown.'),
      panel('time-to-certainty', 'Time to certainty by cause', 'Seconds from unknown to a final answer, per hour of the last day: p50 solid, p90 dashed, p99 dotted.'),
      panel('review-queue', 'Review queue', 'Items waiting for a person (left) and the age of the oldest in minutes (right), hour by hour over two days.'),
      panel('divergences', 'Divergences per night', 'What each night\'s reconciliation found, all providers, the last 30 days.'),
    ),
  );
  try {
    const [uPlot, unknown, certainty, queue, nights] = await Promise.all([
      loadUplot(),
      api('GET', '/finance/trends/unknown-attempts'),
      api('GET', '/finance/trends/time-to-certainty'),
      api('GET', '/finance/trends/review-queue'),
      api('GET', '/finance/trends/divergences'),
    ]);
    const labels = unknown.buckets.map((b) => b.label);
    draw(uPlot, 'unknown-attempts', {
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
      axes: [{ splits: () => labels.map((_, i) => i), values: (_, splits) => splits.map((i) => labels[i] ?? '') }, { label: 'attempts' }],
      series: [{ label: 'age' }, { label: 'unknown attempts', fill: '#fff2d9', stroke: '#8a5300', paths: uPlot.paths.bars({ size: [0.7] }), points: { show: false } }],
    }, [labels.map((_, i) => i), unknown.buckets.map((b) => b.count)]);

    const causes = Object.entries(certainty.causes);
    draw(uPlot, 'time-to-certainty', {
      axes: [{}, { label: 'seconds' }],
      series: [{}, ...causes.flatMap(([cause], i) => ['p50', 'p90', 'p99'].map((p) => ({ label: `${cause} ${p}`, stroke: COLORS[i % COLORS.length], dash: DASHES[p], points: { show: true, size: 5 } })))],
    }, [certainty.hours, ...causes.flatMap(([, c]) => [c.p50, c.p90, c.p99])]);

    draw(uPlot, 'review-queue', {
      scales: { min: {} },
      axes: [{}, { label: 'items' }, { scale: 'min', side: 1, label: 'oldest (min)', grid: { show: false } }],
      series: [{}, { label: 'waiting', stroke: COLORS[0], fill: 'rgba(31,95,191,.08)' }, { label: 'oldest (min)', stroke: COLORS[1], scale: 'min' }],
    }, [queue.hours, queue.open, queue.oldestAgeMinutes]);

    draw(uPlot, 'divergences', {
      axes: [{}, { label: 'divergences' }],
      series: [{}, { label: 'divergences', fill: '#fdecea', stroke: '#b42318', paths: uPlot.paths.bars({ size: [0.6] }), points: { show: false } }],
    }, [nights.days, nights.divergences]);
  } catch (error) {
    status.replaceChildren(errorBox(error));
  }
}

function draw(uPlot, id, options, data) {
  const el = document.getElementById(`chart-${id}`);
  el.replaceChildren();
  el.uplot = new uPlot({ width: Math.max(320, el.clientWidth), height: 240, ...options }, data, el);
}
