/* global location, URLSearchParams, window */
// The queue: what waits for a decision, filtered from the URL, oldest first, paged by cursor.
import { age, dateTime, errorBox, h, money, pill, render } from './dom.js';
import { AGES, REASONS, STATES, reasonLabel } from './labels.js';
import { api, me } from './session.js';
import { route } from './console.js';

export function statePill(item) {
  if (item.state === 'claimed') return pill('claimed', item.claimedBy === me?.name ? 'Claimed by you' : `Claimed by ${item.claimedBy}`, `until ${dateTime(item.claimExpiresAt)}`);
  if (item.state === 'awaiting_second') return pill('second', 'Awaiting 2nd reviewer', `proposed by ${item.decision?.decidedBy}`);
  return pill(item.state, STATES[item.state] ?? item.state);
}

function filtersFromHash() {
  const query = location.hash.split('?')[1] ?? '';
  return Object.fromEntries(new URLSearchParams(query));
}

export async function showQueue() {
  const filters = filtersFromHash();
  const form = queueFilters(filters);
  const body = h('tbody');
  const more = h('div', { class: 'more' });
  const summary = h('p', { class: 'muted', id: 'queue-summary' }, 'Loading…');
  render(
    h('div', { class: 'page-head' }, h('h1', {}, 'Items waiting for a decision'), h('button', { type: 'button', onclick: () => route() }, 'Refresh')),
    form,
    summary,
    h(
      'table',
      { class: 'queue', id: 'queue' },
      h('thead', {}, h('tr', {}, ['Waiting', 'What happened', 'Amount', 'Merchant', 'Customer', 'Provider', 'Attempt', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
      body,
    ),
    more,
  );
  let shown = 0;
  const load = async (cursor) => {
    const params = new URLSearchParams({ limit: '50' });
    for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
    if (filters.minAmount) {
      params.delete('minAmount');
      params.set('minAmountCents', String(Math.round(Number(filters.minAmount) * 100)));
    }
    if (cursor) params.set('cursor', cursor);
    try {
      const page = await api('GET', `/review/items?${params}`);
      for (const item of page.items) body.append(queueRow(item));
      shown += page.items.length;
      summary.textContent = shown === 0 ? 'Nothing is waiting for a decision with these filters.' : `${shown}${page.nextCursor ? '+' : ''} item${shown === 1 ? '' : 's'}, oldest first.`;
      more.replaceChildren(page.nextCursor ? h('button', { type: 'button', onclick: () => load(page.nextCursor) }, 'Show more') : '');
    } catch (error) {
      summary.replaceChildren(errorBox(error));
    }
  };
  await load(null);
}

function queueFilters(filters) {
  const select = (name, label, options) =>
    h('label', {}, label, h('select', { name }, options.map(([value, text]) => h('option', { value, selected: (filters[name] ?? '') === value }, text))));
  return h(
    'form',
    {
      class: 'filters',
      onsubmit: (event) => {
        event.preventDefault();
        const data = new URLSearchParams();
        for (const [key, value] of new window.FormData(event.target)) if (String(value).trim()) data.set(key, String(value).trim());
        location.hash = `#/?${data}`;
      },
    },
    select('state', 'State', [['', 'Waiting (not closed)'], ...Object.entries(STATES)]),
    select('reason', 'What happened', [['', 'Any'], ...Object.keys(REASONS).map((r) => [r, reasonLabel(r)])]),
    h('label', {}, 'Provider', h('input', { name: 'provider', value: filters.provider ?? '', placeholder: 'any', size: 8 })),
    h('label', {}, 'Merchant id', h('input', { name: 'merchantId', value: filters.merchantId ?? '', placeholder: 'any', size: 12 })),
    h('label', {}, 'Amount at least', h('input', { name: 'minAmount', type: 'number', min: 0, step: '0.01', value: filters.minAmount ?? '', placeholder: '0.00', size: 8 })),
    select('olderThan', 'Age', AGES),
    h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Apply'), h('a', { href: '#/', class: 'button quiet' }, 'Clear')),
  );
}

function queueRow(item) {
  const open = () => (location.hash = `#/items/${item.id}`);
  return h(
    'tr',
    { class: 'clickable', 'data-item': item.id, onclick: open },
    h('td', { title: dateTime(item.openedAt) }, age(item.openedAt)),
    h('td', {}, h('div', { class: 'reason' }, reasonLabel(item.reason)), h('div', { class: 'code' }, item.reason)),
    h('td', { class: 'num' }, item.amountCents === null ? `day ${item.day}` : money(item.amountCents, item.currency), item.fourEyes ? h('div', {}, pill('foureyes', 'Four-eyes', 'A succeeded/failed decision needs a second reviewer')) : null),
    h('td', { title: item.merchantId ?? '' }, item.merchantName ?? '—'),
    h('td', { class: 'mono' }, item.customerId ?? '—'),
    h('td', {}, item.provider),
    h('td', {}, item.attemptStatus ? pill(`attempt-${item.attemptStatus}`, item.attemptStatus) : '—'),
    h('td', {}, statePill(item)),
    h('td', {}, h('a', { href: `#/items/${item.id}`, class: 'button', onclick: (e) => e.stopPropagation() }, 'Review')),
  );
}
