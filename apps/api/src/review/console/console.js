/* global document, window, sessionStorage, fetch, location, URLSearchParams, setTimeout, clearTimeout */
// The review console: plain DOM, no framework, no build step. Every value from the api goes into the page as
// text (never as HTML). The reviewer's token lives in this tab's session storage and leaves only as a Bearer
// header on fetch calls to this origin.

const TOKEN_KEY = 'charge-once.review.token';
const app = document.getElementById('app');

const REASONS = {
  tries_exhausted: ['Provider never gave a definite answer', 'The attempt is unknown: every query to the provider failed or stayed inconclusive until the tries ran out.'],
  absence_unprovable: ['Provider cannot prove nothing was charged', 'This provider cannot look a charge up by our reference, so "not found" proves nothing.'],
  duplicate_provider_charges: ['Charged twice at the provider', 'The provider holds more than one charge for this charge. One of them likely needs a refund.'],
  amount_mismatch: ['Provider charged a different amount', 'The provider charge does not match our amount or currency.'],
  provider_success_after_failure: ['Provider took money after we failed the attempt', 'The provider reported a success for an attempt we had already recorded as failed.'],
  provider_failure_after_success: ['Provider reported a failure after success', 'The provider reported a failure for an attempt we had recorded as succeeded.'],
  provider_charge_after_not_found: ['Provider charge appeared after "not found"', 'A charge appeared at the provider after we had concluded it did not exist.'],
  provider_refund: ['Provider refunded a charge', 'The provider refunded money for this attempt.'],
  dispute_opened: ['Customer opened a dispute', 'The customer disputed this charge with their bank.'],
  payload_mismatch: ['Stored payload does not match its key', 'The attempt\'s stored request no longer matches the hash it was sent with.'],
};
const STATES = { open: 'Open', claimed: 'Claimed', awaiting_second: 'Awaiting second reviewer', closed: 'Closed' };
const FOLLOW_UPS = { refund_needed: 'Refund needed', no_action: 'No action', recorded_externally: 'Recorded externally' };
const AGES = [['', 'Any age'], ['15m', 'Older than 15 min'], ['1h', 'Older than 1 hour'], ['4h', 'Older than 4 hours'], ['1d', 'Older than 1 day'], ['3d', 'Older than 3 days']];

let me = null;

// ------------------------------------------------------------------------------------------------ helpers

/** Builds an element; children may be strings (set as text), nodes, arrays, or null/false (skipped). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else el.append(child instanceof window.Node ? child : document.createTextNode(String(child)));
  };
  children.forEach(add);
  return el;
}

class ApiError extends Error {
  constructor(status, body) {
    const message = Array.isArray(body?.message) ? body.message.join('; ') : (body?.message ?? `request failed (${status})`);
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (res.status === 401) {
    signOut('Your session has ended: sign in again.');
    throw new ApiError(401, data);
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

function money(cents, currency) {
  try {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(cents / 10 ** digits);
  } catch {
    return `${cents} ${currency} (minor units)`;
  }
}

const dateTime = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—');
const time = (iso) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function age(iso) {
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

const reasonLabel = (reason) => REASONS[reason]?.[0] ?? reason.replace(/_/g, ' ');
const short = (id) => (id ? `${id.slice(0, 8)}…` : '—');
const pill = (kind, text, title) => h('span', { class: `pill pill-${kind}`, title }, text);

function statePill(item) {
  if (item.state === 'claimed') return pill('claimed', item.claimedBy === me?.name ? 'Claimed by you' : `Claimed by ${item.claimedBy}`, `until ${dateTime(item.claimExpiresAt)}`);
  if (item.state === 'awaiting_second') return pill('second', 'Awaiting 2nd reviewer', `proposed by ${item.decision?.decidedBy}`);
  return pill(item.state, STATES[item.state] ?? item.state);
}

function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), 4000);
}

/** Refusals in words a reviewer acts on: why, and for the grace period, when to try again. */
function errorBox(error) {
  const details = error.body?.details ?? {};
  const grace = details.evidence?.graceEndsAt;
  let text = details.why ?? error.message;
  if (grace) {
    text = `The provider may still be processing the last request (sent ${time(details.evidence.lastSentAt)}), so "not found" cannot be trusted yet. Try again after ${time(grace)} (in about ${Math.max(1, Math.ceil(details.evidence.remainingMs / 60_000))} min).`;
  }
  const refused = error.status === 409 || error.status === 403;
  return h('div', { class: 'error', role: 'alert' }, h('strong', {}, refused ? 'Refused. ' : 'Error. '), text, refused ? h('div', { class: 'muted small' }, 'Nothing was changed.') : null);
}

function render(...nodes) {
  app.replaceChildren(...nodes);
}

// ------------------------------------------------------------------------------------------------ sign in

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  me = null;
  document.getElementById('who').hidden = true;
  showSignIn(message);
}

function showSignIn(message) {
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true, placeholder: 'co_…', 'aria-describedby': 'token-help' });
  const status = h('div', { class: 'form-status' }, message ? h('div', { class: 'error', role: 'alert' }, message) : null);
  const form = h(
    'form',
    {
      class: 'card signin',
      onsubmit: async (event) => {
        event.preventDefault();
        sessionStorage.setItem(TOKEN_KEY, input.value.trim());
        try {
          await loadMe();
          route();
        } catch (error) {
          sessionStorage.removeItem(TOKEN_KEY);
          status.replaceChildren(h('div', { class: 'error', role: 'alert' }, error.status === 403 ? 'This token is not a reviewer token.' : 'That token was not accepted.'));
        }
      },
    },
    h('h1', {}, 'Sign in to the review queue'),
    h('label', { for: 'token' }, 'Reviewer token'),
    input,
    h('p', { id: 'token-help', class: 'muted' }, 'Your token is kept in this browser tab only, and forgotten when you close it or sign out.'),
    status,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  render(form);
  input.focus();
}

async function loadMe() {
  me = await api('GET', '/review/me');
  document.getElementById('who-name').textContent = `${me.name} · ${me.role}`;
  document.getElementById('who').hidden = false;
}

// ------------------------------------------------------------------------------------------------ queue

function filtersFromHash() {
  const query = location.hash.split('?')[1] ?? '';
  return Object.fromEntries(new URLSearchParams(query));
}

async function showQueue() {
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
      h('thead', {}, h('tr', {}, ['Waiting', 'What happened', 'Amount', 'Customer', 'Provider', 'Attempt', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
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
    h('td', { class: 'num' }, money(item.amountCents, item.currency), item.fourEyes ? h('div', {}, pill('foureyes', 'Four-eyes', 'A succeeded/failed decision needs a second reviewer')) : null),
    h('td', { class: 'mono' }, item.customerId ?? '—'),
    h('td', {}, item.provider),
    h('td', {}, pill(`attempt-${item.attemptStatus}`, item.attemptStatus)),
    h('td', {}, statePill(item)),
    h('td', {}, h('a', { href: `#/items/${item.id}`, class: 'button', onclick: (e) => e.stopPropagation() }, 'Review')),
  );
}

// ------------------------------------------------------------------------------------------------ item

async function showItem(id) {
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
        factsCard(item, attempt),
        h('section', { class: 'card' }, h('h2', {}, 'Timeline'), timeline(item, evidence, audit)),
        attemptsCard(evidence.attempts),
        auditCard(audit),
      ),
      h('aside', { class: 'item-side' }, decisionCard(item, evidence)),
    ),
  );
}

function factsCard(item, attempt) {
  const row = (label, value, mono) => [h('dt', {}, label), h('dd', { class: mono ? 'mono' : null }, value ?? '—')];
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Facts'),
    h(
      'dl',
      { class: 'facts' },
      row('Amount', h('strong', {}, money(item.amountCents, item.currency))),
      row('Customer', item.customerId ?? '—', true),
      row('Provider', item.provider),
      row('Attempt status', pill(`attempt-${item.attemptStatus}`, item.attemptStatus)),
      row('Provider charge', attempt.providerChargeId, true),
      row('Opened', `${dateTime(item.openedAt)} (${age(item.openedAt) === 'just now' ? 'just now' : `${age(item.openedAt)} ago`})`),
      row('Charge', item.chargeId ?? 'none of ours (refund of a proposal)', true),
      row('Attempt', item.attemptId, true),
      row('Idempotency key', attempt.idempotencyKey, true),
    ),
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

// ------------------------------------------------------------------------------------------------ decisions

function decisionCard(item, evidence) {
  const status = h('div', { class: 'form-status' });
  const act = async (method, path, body, after) => {
    status.replaceChildren(h('p', { class: 'muted' }, 'Working… (the provider may be asked first)'));
    try {
      const result = await api(method, path, body);
      after(result);
    } catch (error) {
      status.replaceChildren(errorBox(error));
    }
  };
  const reload = () => showItem(item.id);
  const card = (title, ...body) => h('section', { class: 'card decision', id: 'decision' }, h('h2', {}, title), ...body, status);

  if (item.state === 'closed') {
    const d = item.decision;
    return card(
      'Closed',
      d
        ? h('p', {}, `${d.decidedBy} decided `, h('strong', {}, d.action), d.followUp ? ` (${FOLLOW_UPS[d.followUp]})` : '', d.providerChargeId ? ` with ${d.providerChargeId}` : '', item.confirmedBy ? `, confirmed by ${item.confirmedBy}` : '', '.')
        : h('p', {}, 'Closed.'),
      d?.reason ? h('blockquote', {}, d.reason) : null,
    );
  }
  if (item.state === 'awaiting_second') return secondReviewCard(item, card, act, reload);
  if (item.state === 'open') {
    return card(
      'Decide this item',
      h('p', {}, 'Claim the item first: only one reviewer works on it at a time. Your claim lapses after a while if you leave.'),
      h('button', { type: 'button', class: 'primary', id: 'claim', onclick: () => act('POST', `/review/items/${item.id}/claim`, undefined, reload) }, 'Claim this item'),
    );
  }
  if (item.claimedBy !== me?.name) {
    return card('Claimed by someone else', h('p', {}, `${item.claimedBy} is working on this item until ${dateTime(item.claimExpiresAt)}.`));
  }
  return card(
    'Your decision',
    h('div', { class: 'claim-line' }, h('span', { class: 'muted' }, `Yours until ${time(item.claimExpiresAt)}`), h('button', { type: 'button', id: 'release', onclick: () => act('POST', `/review/items/${item.id}/release`, undefined, reload) }, 'Release')),
    decisionForm(item, evidence, act),
  );
}

function decisionForm(item, evidence, act) {
  const unknown = item.attemptStatus === 'unknown';
  const options = unknown
    ? [
        ['succeeded', 'The provider took the money', 'Records the attempt as succeeded. Name the provider charge: it is looked up and must carry this attempt, amount and currency.'],
        ['failed', 'Nothing was charged', 'Records the attempt as failed, so a new attempt may charge the customer. The provider is queried now and must show nothing under our reference.'],
      ]
    : [['acknowledge', 'Acknowledge', `The attempt is already ${item.attemptStatus} and stays so. Close the item and record what happens next.`]];
  const candidates = [...new Set([...evidence.attempts.map((a) => a.providerChargeId), ...evidence.webhookEvents.map((w) => w.providerChargeId)].filter(Boolean))];
  const chargeField = h('label', { class: 'field', id: 'field-charge', hidden: true }, 'Provider charge id', h('input', { name: 'providerChargeId', list: 'charge-candidates', placeholder: 'pi_…', autocomplete: 'off' }), h('datalist', { id: 'charge-candidates' }, candidates.map((c) => h('option', { value: c }))));
  const followField = h('label', { class: 'field', id: 'field-follow', hidden: true }, 'Follow-up', h('select', { name: 'followUp' }, h('option', { value: '' }, 'Choose…'), Object.entries(FOLLOW_UPS).map(([v, t]) => h('option', { value: v }, t))));
  const sync = (form) => {
    const data = new window.FormData(form);
    const action = data.get('action');
    // refund_needed names the provider charge to give back: it becomes a refund proposal for an admin.
    chargeField.hidden = !(action === 'succeeded' || (action === 'acknowledge' && data.get('followUp') === 'refund_needed'));
    followField.hidden = action !== 'acknowledge';
  };
  const form = h(
    'form',
    {
      id: 'decision-form',
      onchange: (e) => sync(e.currentTarget),
      onsubmit: (event) => {
        event.preventDefault();
        const data = new window.FormData(event.target);
        const action = data.get('action');
        const body = { action, reason: String(data.get('reason') ?? '').trim() };
        if (action === 'succeeded') body.providerChargeId = String(data.get('providerChargeId') ?? '').trim();
        if (action === 'acknowledge') body.followUp = data.get('followUp') || undefined;
        if (action === 'acknowledge' && body.followUp === 'refund_needed') body.providerChargeId = String(data.get('providerChargeId') ?? '').trim();
        void act('POST', `/review/items/${item.id}/decision`, body, (result) => {
          if (result.state === 'awaiting_second') {
            toast('Decision recorded: it now waits for a second reviewer.');
            void showItem(item.id);
          } else {
            toast(`Decision recorded (${action}): the item is closed and has left the queue.`);
            location.hash = '#/';
          }
        });
      },
    },
    h(
      'fieldset',
      {},
      h('legend', {}, 'What happened?'),
      options.map(([value, title, help], i) => h('label', { class: 'option' }, h('input', { type: 'radio', name: 'action', value, required: true, checked: options.length === 1 && i === 0 }), h('span', {}, h('strong', {}, title), h('small', {}, help)))),
    ),
    chargeField,
    followField,
    h('label', { class: 'field' }, 'Reason (kept in the audit trail)', h('textarea', { name: 'reason', required: true, minlength: 3, rows: 3, placeholder: 'What you checked and what it showed' })),
    item.fourEyes && unknown ? h('p', { class: 'note' }, 'This amount needs four eyes: your decision will wait for a second reviewer before anything changes.') : null,
    h('button', { type: 'submit', class: 'primary' }, 'Record decision'),
  );
  sync(form);
  return form;
}

function secondReviewCard(item, card, act, reload) {
  const d = item.decision;
  const proposal = [
    h('p', {}, h('strong', {}, d.decidedBy), ` decided `, h('strong', {}, d.action), d.providerChargeId ? ` with ${d.providerChargeId}` : '', ` at ${dateTime(d.decidedAt)}.`),
    d.reason ? h('blockquote', {}, d.reason) : null,
  ];
  if (d.decidedBy === me?.name) return card('Waiting for a second reviewer', ...proposal, h('p', { class: 'muted' }, 'Someone other than you must confirm or reject it.'));
  const reason = h('textarea', { name: 'reason', required: true, minlength: 3, rows: 3, placeholder: 'What you checked' });
  const send = (what) => () => {
    if (!reason.reportValidity()) return;
    void act('POST', `/review/items/${item.id}/${what}`, { reason: reason.value.trim() }, () => {
      toast(what === 'confirm' ? 'Confirmed: the decision is applied.' : 'Rejected: the item is back in the queue.');
      if (what === 'confirm') location.hash = '#/';
      else void reload();
    });
  };
  return card(
    'Second review',
    ...proposal,
    h('p', { class: 'muted' }, 'Confirming asks the provider again, then applies the decision.'),
    h('label', { class: 'field' }, 'Reason', reason),
    h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', id: 'confirm', onclick: send('confirm') }, 'Confirm'), h('button', { type: 'button', id: 'reject', onclick: send('reject') }, 'Reject')),
  );
}

// Reconciliation: what the nightly comparison with the provider's statement found, and the refunds it proposes.
// Admin only (the api refuses others with 403, shown here in words).

const DIVERGENCES = {
  provider_only: 'Money at the provider with no charge of ours',
  duplicate_charge: 'A second provider charge for one of our charges',
  missing_at_provider: 'Our success the provider does not show',
  amount_mismatch: 'Amount differs from our charge',
  currency_mismatch: 'Currency differs from our charge',
};

/** The same kinds, read in a payout gateway's sent-Pix statement: money that left, not money taken. */
const PAYOUT_DIVERGENCES = {
  provider_only: 'Pix sent at the provider with no payout of ours that succeeded',
  duplicate_charge: 'A second Pix sent for one of our payouts',
  missing_at_provider: 'Our sent payout the provider does not show as executed',
  amount_mismatch: 'Amount sent differs from our payout',
  currency_mismatch: 'Currency sent differs from our payout',
};

async function showReconciliation() {
  const proposals = h('tbody');
  const divergences = h('tbody');
  const status = h('div', { class: 'form-status', id: 'reconciliation-status' });
  render(
    h('div', { class: 'page-head' }, h('h1', {}, 'Reconciliation'), h('button', { type: 'button', onclick: () => route() }, 'Refresh')),
    status,
    h('h2', {}, 'Refunds proposed'),
    h('p', { class: 'muted' }, 'Approving sends the refund of that provider charge at once, exactly once. Rejecting needs a reason.'),
    h('table', { class: 'queue', id: 'proposals' }, h('thead', {}, h('tr', {}, ['Found', 'Why', 'Provider charge', 'Amount', 'Provider', ''].map((t) => h('th', { scope: 'col' }, t)))), proposals),
    h('h2', {}, 'Open divergences'),
    h('table', { class: 'queue', id: 'divergences' }, h('thead', {}, h('tr', {}, ['Day', 'What', 'Provider charge', 'Our attempt', 'Amount', 'Provider'].map((t) => h('th', { scope: 'col' }, t)))), divergences),
  );
  try {
    const [open, found] = await Promise.all([api('GET', '/reconciliation/refund-proposals?state=proposed'), api('GET', '/reconciliation/divergences?status=open&limit=200')]);
    proposals.replaceChildren(...(open.length ? open.map(proposalRow) : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No refund waits for a decision.'))]));
    divergences.replaceChildren(...(found.items.length ? found.items.map(divergenceRow) : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'Nothing open.'))]));
  } catch (error) {
    status.replaceChildren(error.status === 403 ? h('div', { class: 'error', role: 'alert' }, 'Reconciliation is for admin tokens.') : errorBox(error));
  }
}

function proposalRow(proposal) {
  const note = h('input', { name: 'note', placeholder: 'reason (needed to reject)', size: 24, 'aria-label': 'Reason' });
  const decide = async (what) => {
    if (what === 'reject' && !note.value.trim()) {
      note.focus();
      return toast('Say why the money stays before rejecting.');
    }
    try {
      const decided = await api('POST', `/reconciliation/refund-proposals/${proposal.id}/${what}`, note.value.trim() ? { note: note.value.trim() } : {});
      toast(what === 'approve' ? `Refund ${decided.refundId} sent.` : 'Proposal rejected.');
      await route();
    } catch (error) {
      toast(error.message);
      await route();
    }
  };
  return h(
    'tr',
    { 'data-proposal': proposal.id },
    h('td', { title: dateTime(proposal.createdAt) }, age(proposal.createdAt)),
    h('td', {}, DIVERGENCES[proposal.reason] ?? proposal.reason),
    h('td', { class: 'mono' }, proposal.providerChargeId),
    h('td', { class: 'num' }, money(proposal.amountCents, proposal.currency)),
    h('td', {}, proposal.provider),
    h(
      'td',
      {},
      note,
      h('button', { type: 'button', class: 'primary', 'data-action': 'approve', onclick: () => decide('approve') }, 'Approve refund'),
      h('button', { type: 'button', 'data-action': 'reject', onclick: () => decide('reject') }, 'Reject'),
    ),
  );
}

function divergenceRow(divergence) {
  return h(
    'tr',
    { 'data-divergence': divergence.id },
    h('td', {}, divergence.day),
    h('td', {}, h('div', { class: 'reason' }, (divergence.payoutId ? PAYOUT_DIVERGENCES : DIVERGENCES)[divergence.kind] ?? divergence.kind), h('div', { class: 'code' }, divergence.kind)),
    h('td', { class: 'mono' }, divergence.providerChargeId ?? '—'),
    h('td', { class: 'mono' }, divergence.attemptId ?? '—'),
    h('td', { class: 'num' }, divergence.amountCents === null ? '—' : money(divergence.amountCents, divergence.currency)),
    h('td', {}, divergence.provider),
  );
}

// ------------------------------------------------------------------------------------------------ routing

async function route() {
  if (!sessionStorage.getItem(TOKEN_KEY)) return showSignIn();
  if (!me) {
    try {
      await loadMe();
    } catch {
      return signOut('Sign in again.');
    }
  }
  const match = /^#\/items\/([0-9a-f-]{36})/.exec(location.hash);
  if (match) await showItem(match[1]);
  else if (location.hash.startsWith('#/reconciliation')) await showReconciliation();
  else await showQueue();
  app.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

document.getElementById('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => void route());
void route();
