/* global location, URLSearchParams */
// Finding a charge: by its id, the merchant's order id, the customer id, or a provider reference. Shows the
// charge with every attempt and what each provider call proved, its refunds, and its review items.
import { dateTime, errorBox, h, money, pill, render } from './dom.js';
import { reasonLabel, STATES } from './labels.js';
import { api } from './session.js';

export async function showLookup() {
  const query = new URLSearchParams(location.hash.split('?')[1] ?? '').get('q') ?? '';
  const input = h('input', { id: 'lookup-query', name: 'q', size: 48, required: true, maxlength: 200, value: query, placeholder: 'charge id, order id, customer id, pi_… / ch_…', 'aria-label': 'Search' });
  const results = h('div', { id: 'lookup-results' });
  const form = h(
    'form',
    {
      id: 'lookup-form',
      class: 'filters',
      onsubmit: (event) => {
        event.preventDefault();
        location.hash = `#/lookup?${new URLSearchParams({ q: input.value.trim() })}`;
      },
    },
    h('label', { for: 'lookup-query' }, 'Charge id, order id, customer id or provider reference', input),
    h('button', { type: 'submit', class: 'primary' }, 'Find'),
  );
  render(h('div', { class: 'page-head' }, h('h1', {}, 'Find a charge')), form, results);
  if (!query) return;
  results.replaceChildren(h('p', { class: 'muted' }, 'Searching…'));
  try {
    const found = await api('GET', `/finance/charges?${new URLSearchParams({ query })}`);
    results.replaceChildren(
      found.items.length ? h('p', { class: 'muted' }, `${found.items.length} charge${found.items.length === 1 ? '' : 's'}${found.truncated ? ' (the first 50: narrow the search)' : ''}`) : h('p', { class: 'muted' }, `No charge matches "${query}".`),
      ...found.items.map(chargeCard),
    );
  } catch (error) {
    results.replaceChildren(errorBox(error));
  }
}

function chargeCard(charge) {
  const dl = (pairs) => h('dl', { class: 'facts' }, pairs.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
  return h(
    'section',
    { class: 'card', 'data-charge': charge.id },
    h('h2', {}, money(charge.amountCents, charge.currency), ' ', h('span', { class: 'muted' }, `order ${charge.orderId}`)),
    dl([
      ['Charge', h('span', { class: 'mono' }, charge.id)],
      ['Merchant', charge.merchantName],
      ['Customer', h('span', { class: 'mono' }, charge.customerId)],
      ['Provider', charge.provider],
      ['Created', dateTime(charge.createdAt)],
      ['Amount', `${charge.amountCents} ${charge.currency} (minor units)`],
    ]),
    h('h3', {}, 'Attempts and evidence'),
    charge.attempts.length ? charge.attempts.map(attemptBlock) : h('p', { class: 'muted' }, 'Never submitted.'),
    h('h3', {}, 'Refunds'),
    charge.refunds.length
      ? table(['Refund', 'Amount', 'Status', 'Reason', 'Asked by', 'Created'], charge.refunds.map((refund) => refundRow(refund, charge.attempts)))
      : h('p', { class: 'muted' }, 'No refund.'),
    h('h3', {}, 'Review items'),
    charge.reviewItems.length
      ? table(['Item', 'What happened', 'State', 'Decision', 'Opened', 'Closed'], charge.reviewItems.map(reviewRow))
      : h('p', { class: 'muted' }, 'Never reviewed.'),
    h('h3', {}, 'Events sent to the merchant'),
    charge.events.length
      ? table(['Event', 'Type', 'Version', 'Created', 'Deliveries'], charge.events.map(eventRow))
      : h('p', { class: 'muted' }, 'No event yet.'),
  );
}

function eventRow(event) {
  return h(
    'tr',
    { 'data-event': event.id },
    h('td', { class: 'mono' }, event.id.slice(0, 8)),
    h('td', { class: 'code' }, event.type),
    h('td', { class: 'num' }, String(event.objectVersion)),
    h('td', {}, dateTime(event.createdAt)),
    h('td', {}, event.deliveries.length ? h('ul', { class: 'calls' }, event.deliveries.map(deliveryItem)) : h('span', { class: 'muted' }, 'no endpoint wanted it')),
  );
}

function deliveryItem(delivery) {
  const last = delivery.lastHttpStatus ? ` · last answer HTTP ${delivery.lastHttpStatus}` : delivery.lastError ? ` · ${delivery.lastError}` : '';
  const when = delivery.deliveredAt ? ` ${dateTime(delivery.deliveredAt)}` : delivery.nextAttemptAt ? ` · next try ${dateTime(delivery.nextAttemptAt)}` : '';
  return h(
    'li',
    { 'data-delivery': delivery.state },
    pill(`delivery-${delivery.state}`, delivery.state),
    ' ',
    h('span', { class: 'mono' }, delivery.url),
    h('div', { class: 'muted small' }, `${delivery.attempts} tr${delivery.attempts === 1 ? 'y' : 'ies'}${when}${last}`),
  );
}

function attemptBlock(attempt) {
  return h(
    'div',
    { class: 'attempt', 'data-attempt': attempt.id },
    h(
      'div',
      {},
      pill(`attempt-${attempt.status}`, attempt.status),
      ' ',
      h('strong', {}, attempt.operation === 'refund' ? 'Refund attempt' : 'Charge attempt'),
      ' ',
      h('span', { class: 'mono' }, attempt.id),
      attempt.providerChargeId ? [' · provider ', h('span', { class: 'mono' }, attempt.providerChargeId)] : null,
      attempt.lateCaptureProviderChargeId ? [' · captured late as ', h('span', { class: 'mono' }, attempt.lateCaptureProviderChargeId)] : null,
      h('div', { class: 'muted small' }, `created ${dateTime(attempt.createdAt)}`, attempt.resolvedAt ? ` · settled ${dateTime(attempt.resolvedAt)} by ${attempt.resolvedBy}` : '', ` · key ${attempt.idempotencyKey}`),
    ),
    h(
      'ol',
      { class: 'calls' },
      attempt.providerCalls.length
        ? attempt.providerCalls.map((call) =>
            h('li', { 'data-call': call.kind }, h('span', { class: 'mono' }, dateTime(call.at)), ` ${call.kind} → ${call.outcome}`, call.httpStatus ? ` (HTTP ${call.httpStatus})` : '', ` in ${call.durationMs} ms`),
          )
        : h('li', { class: 'muted' }, 'No call reached the provider.'),
    ),
  );
}

function refundRow(refund, attempts) {
  const last = attempts.filter((a) => a.refundId === refund.id).at(-1);
  return h(
    'tr',
    { 'data-refund': refund.id },
    h('td', { class: 'mono' }, refund.id),
    h('td', { class: 'num' }, money(refund.amountCents, refund.currency)),
    h('td', {}, last ? pill(`attempt-${last.status}`, last.status) : '—', refund.releasedAt ? h('div', { class: 'muted small' }, 'amount released') : null),
    h('td', {}, refund.reason ?? '—'),
    h('td', {}, refund.createdBy),
    h('td', {}, dateTime(refund.createdAt)),
  );
}

function reviewRow(item) {
  return h(
    'tr',
    { 'data-review-item': item.id },
    h('td', {}, h('a', { href: `#/items/${item.id}`, class: 'mono' }, item.id.slice(0, 8))),
    h('td', {}, h('div', {}, reasonLabel(item.reason)), h('div', { class: 'code' }, item.reason)),
    h('td', {}, STATES[item.state] ?? item.state),
    h('td', {}, item.decision ? `${item.decision} by ${item.decidedBy}${item.confirmedBy ? `, confirmed by ${item.confirmedBy}` : ''}` : '—'),
    h('td', {}, dateTime(item.openedAt)),
    h('td', {}, dateTime(item.closedAt)),
  );
}

export function table(headers, rows) {
  return h('table', { class: 'queue' }, h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, rows));
}
