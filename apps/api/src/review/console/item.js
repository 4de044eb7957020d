// One item: its facts, a timeline of everything that happened to its attempts, the audit trail, and the decision card.
import { age, dateTime, errorBox, h, money, pill, render, short, time } from './dom.js';
import { REASONS, STATES, reasonLabel } from './labels.js';
import { api } from './session.js';
import { statePill } from './queue.js';
import { decisionCard } from './decisions.js';

export async function showItem(id) {
  let item;
  let audit;
  try {
    [item, audit] = await Promise.all([api('GET', `/review/items/${id}`), api('GET', `/review/items/${id}/audit`)]);
  } catch (error) {
    render(h('a', { href: '#/', class: 'back' }, '← Back to the queue'), errorBox(error));
    return;
  }
  const { evidence } = item;
  const attempt = evidence.attempts.find((a) => a.id === item.attemptId) ?? {};
  render(
    h('a', { href: '#/', class: 'back' }, '← Back to the queue'),
    h(
      'div',
      { class: 'page-head' },
      h('div', {}, h('h1', {}, reasonLabel(item.reason), ' ', statePill(item)), h('p', { class: 'lead' }, REASONS[item.reason]?.[1] ?? '')),
    ),
    h(
      'div',
      { class: 'item-layout' },
      h(
        'div',
        { class: 'item-main' },
        item.day ? gapFactsCard(item) : factsCard(item, attempt),
        h('section', { class: 'card' }, h('h2', {}, 'Timeline'), timeline(item, evidence, audit)),
        item.day ? runsCard(evidence.runs ?? []) : attemptsCard(evidence.attempts),
        auditCard(audit),
      ),
      h('aside', { class: 'item-side' }, decisionCard(item, evidence)),
    ),
  );
}

function factsCard(item, attempt) {
  const row = (label, value, mono) => [h('dt', {}, label), h('dd', { class: mono ? 'mono' : null }, value ?? '—')];
  return factsSection(
    row('Amount', h('strong', {}, money(item.amountCents, item.currency))),
    row('Merchant', item.merchantName ? `${item.merchantName} (${item.merchantId})` : '—'),
    row('Customer', item.customerId ?? '—', true),
    row('Provider', item.provider),
    row('Attempt status', pill(`attempt-${item.attemptStatus}`, item.attemptStatus)),
    row('Provider charge', attempt.providerChargeId, true),
    openedRow(item),
    row('Charge', item.chargeId ?? 'none of ours (refund of a proposal)', true),
    row('Attempt', item.attemptId, true),
    row('Idempotency key', attempt.idempotencyKey, true),
  );
}

const factsSection = (...rows) => h('section', { class: 'card' }, h('h2', {}, 'Facts'), h('dl', { class: 'facts' }, rows));
const openedRow = (item) => [h('dt', {}, 'Opened'), h('dd', {}, `${dateTime(item.openedAt)} (${age(item.openedAt) === 'just now' ? 'just now' : `${age(item.openedAt)} ago`})`)];

/** A reconciliation_gap item is about a provider's day, not an attempt. */
function gapFactsCard(item) {
  return factsSection([h('dt', {}, 'Provider'), h('dd', {}, item.provider)], [h('dt', {}, 'Day'), h('dd', {}, h('strong', {}, item.day))], openedRow(item));
}

function runsCard(runs) {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, `Runs of the day (${runs.length})`),
    runs.length === 0
      ? h('p', { class: 'muted' }, 'The day was never tried.')
      : runs.map((r) => h('div', { class: 'attempt' }, h('div', {}, pill(`run-${r.status}`, r.status), ' ', `${r.trigger} · ${r.source} · started `, dateTime(r.startedAt), r.requestedBy ? ` by ${r.requestedBy}` : ''), r.error ? h('div', { class: 'muted' }, r.error) : null)),
  );
}

/** Sends, responses, lookups, webhooks, transitions and reviewer actions in one chronological list. */
function timeline(item, evidence, audit) {
  const several = evidence.attempts.length > 1;
  const events = [];
  const tag = (attemptId) => (several ? ` · attempt ${short(attemptId)}` : '');
  for (const t of evidence.transitions) {
    events.push({
      at: t.at,
      kind: 'transition',
      label: 'Status',
      title: t.from ? `${t.from} → ${t.to}` : `Attempt created (${t.to})`,
      sub: `by ${t.cause}${t.actor && t.actor !== t.cause ? ` (${t.actor})` : ''}${tag(t.attemptId)}`,
      detail: t.detail,
    });
  }
  for (const c of evidence.providerCalls) {
    const purpose = c.detail?.purpose;
    const review = typeof purpose === 'string' && purpose.startsWith('review_');
    events.push({
      at: c.at,
      kind: c.kind === 'create' ? 'send' : 'lookup',
      label: c.kind === 'create' ? 'Sent' : review ? 'Reviewer lookup' : 'Lookup',
      title: c.kind === 'create' ? `Charge request sent: ${c.outcome.replace(/_/g, ' ')}` : `Asked the provider${c.detail?.providerChargeId ? ` about ${c.detail.providerChargeId}` : ''}: ${c.outcome.replace(/_/g, ' ')}`,
      sub: `${c.httpStatus ? `HTTP ${c.httpStatus}` : 'no HTTP response'} · ${c.durationMs} ms${review ? ` · by ${c.detail.actor}` : ''}${tag(c.attemptId)}`,
      detail: c.detail,
    });
  }
  for (const w of evidence.webhookEvents) {
    events.push({ at: w.receivedAt, kind: 'webhook', label: 'Webhook', title: w.type, sub: `${w.disposition.replace(/_/g, ' ')}${w.providerChargeId ? ` · ${w.providerChargeId}` : ''}${tag(w.attemptId)}`, detail: w.detail });
  }
  for (const r of evidence.runs ?? []) {
    events.push({ at: r.startedAt, kind: 'lookup', label: 'Run', title: `Reconciliation run ${r.status}`, sub: `${r.trigger}${r.error ? ` · ${r.error}` : ''}`, detail: null });
  }
  events.push({ at: item.openedAt, kind: 'review', label: 'Review', title: `Review item opened: ${reasonLabel(item.reason)}`, sub: item.reason, detail: evidence.snapshot?.findings ?? null });
  for (const a of audit) {
    const what = { claim: 'claimed the item', release: 'released the item', decide: `decided ${a.decision}`, confirm: `confirmed ${a.decision}`, reject: 'rejected the decision', escalate: 'found a second provider charge' }[a.action] ?? a.action;
    events.push({ at: a.at, kind: 'review', label: 'Review', title: `${a.actor} ${what}`, sub: a.reason ?? `${a.stateBefore} → ${a.stateAfter}`, detail: a.evidence });
  }
  events.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
  return h(
    'ol',
    { class: 'timeline' },
    events.map((e) =>
      h(
        'li',
        { class: `ev ev-${e.kind}` },
        h('time', { datetime: e.at, title: dateTime(e.at) }, time(e.at)),
        h('span', { class: `chip chip-${e.kind}` }, e.label),
        h('div', { class: 'ev-body' }, h('div', { class: 'ev-title' }, e.title), h('div', { class: 'ev-sub' }, e.sub), e.detail ? h('details', {}, h('summary', {}, 'details'), h('pre', {}, JSON.stringify(e.detail, null, 2))) : null),
      ),
    ),
  );
}

function attemptsCard(attempts) {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, attempts.length === 1 ? 'The attempt' : `Attempts (${attempts.length})`),
    attempts.map((a) =>
      h(
        'div',
        { class: 'attempt' },
        h('div', {}, pill(`attempt-${a.status}`, a.status), ' ', h('span', { class: 'mono' }, a.id), ' · created ', dateTime(a.createdAt), a.resolvedBy ? ` · settled by ${a.resolvedBy}` : ''),
        h('div', { class: 'muted' }, `${a.httpAttempts} send${a.httpAttempts === 1 ? '' : 's'}, ${a.resolutionTries} lookup${a.resolutionTries === 1 ? '' : 's'} · key `, h('span', { class: 'mono' }, a.idempotencyKey)),
        h('details', {}, h('summary', {}, 'Exact request sent'), h('pre', {}, a.payload.split('&').map(decodeURIComponent).join('\n'))),
      ),
    ),
  );
}

function auditCard(audit) {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Audit trail'),
    audit.length === 0
      ? h('p', { class: 'muted' }, 'Nobody has acted on this item yet.')
      : h(
          'table',
          { class: 'audit', id: 'audit' },
          h('thead', {}, h('tr', {}, ['When', 'Who', 'Action', 'State', 'Reason'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            audit.map((a) => h('tr', {}, h('td', {}, dateTime(a.at)), h('td', {}, a.actor), h('td', {}, a.decision ? `${a.action} · ${a.decision}` : a.action), h('td', {}, `${STATES[a.stateBefore] ?? a.stateBefore} → ${STATES[a.stateAfter] ?? a.stateAfter}`), h('td', {}, a.reason ?? ''))),
          ),
        ),
  );
}
