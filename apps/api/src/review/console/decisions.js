/* global location, window */
// Deciding an item: claim, decide with a reason, and the second reviewer's confirm or reject.
import { dateTime, errorBox, h, time, toast } from './dom.js';
import { FOLLOW_UPS, GAP_FOLLOW_UPS, LATE_CAPTURE_FOLLOW_UPS, PLAIN_FOLLOW_UPS } from './labels.js';
import { api, me } from './session.js';
import { showItem } from './item.js';

export function decisionCard(item, evidence) {
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
  const options = item.day
    ? [['acknowledge', 'Close the day', `Nothing of ${item.provider}'s ${item.day} was reconciled here. Say how it was reconciled (by hand, outside this service), or that there was nothing to reconcile. A successful run of the day closes this item by itself.`]]
    : unknown
    ? [
        ['succeeded', 'The provider took the money', 'Records the attempt as succeeded. Name the provider charge: it is looked up and must carry this attempt, amount and currency.'],
        ['failed', 'Nothing was charged', 'Records the attempt as failed, so a new attempt may charge the customer. The provider is queried now and must show nothing under our reference.'],
      ]
    : item.lateCaptureProviderChargeId
      ? [['acknowledge', 'Acknowledge the payment', `We had failed this attempt, but the provider captured ${item.lateCaptureProviderChargeId}: the customer paid, and this charge will never be charged again. Keep the payment (fulfil the order) or refund it.`]]
      : [['acknowledge', 'Acknowledge', `The attempt is already ${item.attemptStatus} and stays so. Close the item and record what happens next.`]];
  const candidates = [...new Set([...evidence.attempts.map((a) => a.providerChargeId), ...evidence.webhookEvents.map((w) => w.providerChargeId)].filter(Boolean))];
  const chargeField = h('label', { class: 'field', id: 'field-charge', hidden: true }, 'Provider charge id', h('input', { name: 'providerChargeId', list: 'charge-candidates', placeholder: 'pi_…', autocomplete: 'off' }), h('datalist', { id: 'charge-candidates' }, candidates.map((c) => h('option', { value: c }))));
  const followUps = item.day ? GAP_FOLLOW_UPS : item.lateCaptureProviderChargeId ? LATE_CAPTURE_FOLLOW_UPS : PLAIN_FOLLOW_UPS;
  const followField = h('label', { class: 'field', id: 'field-follow', hidden: true }, 'Follow-up', h('select', { name: 'followUp' }, h('option', { value: '' }, 'Choose…'), followUps.map((v) => h('option', { value: v }, FOLLOW_UPS[v]))));
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
