/* global location, URLSearchParams */
// The days reconciliation covered for one provider: each day's run, its counts and duration; a missing or failed
// day stands out. A click on a day shows that run's divergences; what is in view exports as CSV. Admin only.
import { dateTime, errorBox, h, money, render, toast } from './dom.js';
import { DIVERGENCES, PAYOUT_DIVERGENCES } from './labels.js';
import { table } from './lookup.js';
import { api, download } from './session.js';

const STATUS_WORDS = { succeeded: 'Reconciled', failed: 'Failed', running: 'Running', missing: 'Missing', before_service: 'Before service' };

export async function showDays() {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const status = h('div', { class: 'form-status', id: 'days-status' });
  const detail = h('section', { id: 'day-detail' });
  const grid = h('div', { class: 'calendar', id: 'calendar' });
  const head = h('div', { class: 'page-head' }, h('h1', {}, 'Reconciliation days'));
  render(
    head,
    status,
    h(
      'div',
      { class: 'filters' },
      h('button', { type: 'button', id: 'export-open-divergences', onclick: () => save('/finance/reconciliation/divergences.csv?status=open') }, 'Open divergences (CSV)'),
      h('button', { type: 'button', id: 'export-proposals', onclick: () => save('/finance/reconciliation/refund-proposals.csv') }, 'Refund proposals (CSV)'),
    ),
    grid,
    detail,
  );
  try {
    const query = new URLSearchParams([...params].filter(([key]) => ['provider', 'to', 'days'].includes(key)));
    const calendar = await api('GET', `/finance/reconciliation/calendar?${query}`);
    head.append(providerPicker(calendar, params));
    const missing = calendar.days.filter((d) => d.status === 'missing' || d.status === 'failed').length;
    const before = calendar.days.filter((d) => d.status === 'before_service').length;
    const beforeText = before ? ` ${before} before the service first saw ${calendar.provider}.` : '';
    grid.before(h('p', { class: 'muted', id: 'days-summary' }, `${calendar.provider}: ${calendar.days.length} days ending ${calendar.days[0]?.day ?? '—'}; ${missing ? `${missing} not reconciled.` : 'every day reconciled.'}${beforeText}`));
    grid.replaceChildren(...calendar.days.map((day) => dayCell(day, () => showDay(calendar.provider, day, detail))));
  } catch (error) {
    status.replaceChildren(error.status === 403 ? h('div', { class: 'error', role: 'alert' }, 'Reconciliation is for admin tokens.') : errorBox(error));
  }
}

function providerPicker(calendar, params) {
  const select = h(
    'select',
    {
      'aria-label': 'Provider',
      onchange: () => {
        params.set('provider', select.value);
        location.hash = `#/days?${params}`;
      },
    },
    calendar.providers.map((p) => h('option', { value: p, selected: p === calendar.provider }, p)),
  );
  return select;
}

function dayCell(day, onclick) {
  const total = Object.values(day.divergences).reduce((a, b) => a + b, 0);
  return h(
    'button',
    { type: 'button', class: `day day-${day.status}`, 'data-day': day.day, disabled: day.runId === null, onclick, title: day.error ?? STATUS_WORDS[day.status] },
    h('span', { class: 'day-date' }, day.day),
    h('span', { class: 'day-status' }, STATUS_WORDS[day.status]),
    day.runId
      ? h(
          'span',
          { class: 'day-counts' },
          `${day.linesRead} read · ${day.matched} matched · ${day.settled} settled`,
          h('br'),
          `${total} divergence${total === 1 ? '' : 's'}${day.durationSeconds === null ? '' : ` · ${day.durationSeconds} s`}${day.runs > 1 ? ` · ${day.runs} runs` : ''}`,
        )
      : h('span', { class: 'day-counts' }, day.status === 'before_service' ? 'nothing of ours yet' : 'no run'),
  );
}

async function showDay(provider, day, detail) {
  detail.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const found = await api('GET', `/reconciliation/divergences?${new URLSearchParams({ runId: day.runId, limit: '500' })}`);
    const kinds = Object.entries(day.divergences).map(([kind, n]) => `${n} ${kind}`).join(', ') || 'none';
    // h() skips a null child; replaceChildren would print it.
    detail.replaceChildren(
      h(
        'div',
        {},
        h(
          'div',
          { class: 'page-head' },
          h('h2', {}, `${provider} · ${day.day}: ${STATUS_WORDS[day.status].toLowerCase()}`),
          h('button', { type: 'button', id: 'export-run-divergences', onclick: () => save(`/finance/reconciliation/divergences.csv?${new URLSearchParams({ runId: day.runId })}`) }, 'Download these divergences (CSV)'),
        ),
        h('p', { class: 'muted' }, `Run ${day.runId}, started ${dateTime(day.startedAt)}, finished ${dateTime(day.finishedAt)}. Divergences by kind: ${kinds}.`),
        day.error ? h('div', { class: 'error', role: 'alert' }, day.error) : null,
        found.nextCursor ? h('p', { class: 'muted' }, `The first ${found.items.length} are shown; the CSV holds them all.`) : null,
        found.items.length
          ? table(['What', 'Provider charge', 'Our charge / payout', 'Amount', 'Status', 'Note'], found.items.map(divergenceRow))
          : h('p', { class: 'muted' }, 'This run found no divergence.'),
      ),
    );
  } catch (error) {
    detail.replaceChildren(errorBox(error));
  }
}

function divergenceRow(d) {
  return h(
    'tr',
    { 'data-divergence': d.id },
    h('td', {}, h('div', {}, (d.payoutId ? PAYOUT_DIVERGENCES : DIVERGENCES)[d.kind] ?? d.kind), h('div', { class: 'code' }, d.kind)),
    h('td', { class: 'mono' }, d.providerChargeId ?? '—'),
    h('td', { class: 'mono' }, d.chargeId ?? d.payoutId ?? '—'),
    h('td', { class: 'num' }, money(d.amountCents, d.currency)),
    h('td', {}, d.status),
    h('td', {}, d.note ?? ''),
  );
}

async function save(path) {
  try {
    await download(path);
  } catch (error) {
    toast(error.message);
  }
}
