// Reconciliation: what the nightly comparison with the provider's statement found, and the refunds it proposes.
// Admin only (the api refuses others with 403, shown here in words).
import { age, dateTime, errorBox, h, money, render, toast } from './dom.js';
import { DAY_STATUSES, DIVERGENCES, PAYOUT_DIVERGENCES } from './labels.js';
import { api } from './session.js';
import { route } from './console.js';

export async function showReconciliation() {
  const days = h('tbody');
  const proposals = h('tbody');
  const divergences = h('tbody');
  const status = h('div', { class: 'form-status', id: 'reconciliation-status' });
  render(
    h('div', { class: 'page-head' }, h('h1', {}, 'Reconciliation'), h('button', { type: 'button', onclick: () => route() }, 'Refresh')),
    status,
    h('h2', {}, 'Days not yet reconciled'),
    h('p', { class: 'muted' }, 'Each provider\'s days of the catch-up window with no successful run. The next scheduled tick retries them (a failed day after a backoff); a day that leaves the window becomes a review item.'),
    h('table', { class: 'queue', id: 'open-days' }, h('thead', {}, h('tr', {}, ['Provider', 'Day', 'Latest run', 'Failed tries', 'Last error'].map((t) => h('th', { scope: 'col' }, t)))), days),
    h('h2', {}, 'Refunds proposed'),
    h('p', { class: 'muted' }, 'Approving sends the refund of that provider charge at once, exactly once. Rejecting needs a reason.'),
    h('table', { class: 'queue', id: 'proposals' }, h('thead', {}, h('tr', {}, ['Found', 'Why', 'Provider charge', 'Amount', 'Provider', ''].map((t) => h('th', { scope: 'col' }, t)))), proposals),
    h('h2', {}, 'Open divergences'),
    h('table', { class: 'queue', id: 'divergences' }, h('thead', {}, h('tr', {}, ['Day', 'What', 'Provider charge', 'Our attempt', 'Amount', 'Provider'].map((t) => h('th', { scope: 'col' }, t)))), divergences),
  );
  try {
    const [openDays, proposed, awaiting, found] = await Promise.all([
      api('GET', '/reconciliation/open-days'),
      api('GET', '/reconciliation/refund-proposals?state=proposed'),
      api('GET', '/reconciliation/refund-proposals?state=awaiting_second'),
      api('GET', '/reconciliation/divergences?status=open&limit=200'),
    ]);
    days.replaceChildren(...openDays.flatMap(openDayRows));
    const open = [...awaiting, ...proposed];
    proposals.replaceChildren(...(open.length ? open.map(proposalRow) : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No refund waits for a decision.'))]));
    divergences.replaceChildren(...(found.items.length ? found.items.map(divergenceRow) : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'Nothing open.'))]));
  } catch (error) {
    status.replaceChildren(error.status === 403 ? h('div', { class: 'error', role: 'alert' }, 'Reconciliation is for admin tokens.') : errorBox(error));
  }
}

/** One row per open day; a provider with none says through when it is reconciled. */
function openDayRows({ provider, reconciledThrough, days }) {
  if (days.length === 0) return [h('tr', { 'data-provider': provider }, h('td', {}, provider), h('td', { colspan: 4, class: 'muted' }, `Every day reconciled (through ${dateTime(reconciledThrough)}).`))];
  return days.map((d) =>
    h(
      'tr',
      { 'data-provider': provider, 'data-day': d.day },
      h('td', {}, provider),
      h('td', {}, d.day),
      h('td', {}, DAY_STATUSES[d.status] ?? d.status),
      h('td', { class: 'num' }, String(d.failedRuns)),
      h('td', { class: 'muted' }, d.error ?? '—'),
    ),
  );
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
      const approved = decided.state === 'awaiting_second' ? 'Approved: a second admin must approve it too before anything is sent.' : `Refund ${decided.refundId} sent.`;
      toast(what === 'approve' ? approved : 'Proposal rejected.');
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
    h('td', { class: 'num' }, money(proposal.amountCents, proposal.currency), proposal.approvedBy ? h('div', { class: 'muted' }, `approved by ${proposal.approvedBy}; needs a second admin`) : null),
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
