import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity, ProviderCallEntity, ReviewItemEntity } from '@app/database';
import { openReviewItem } from '@app/review/items';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { intentAtProvider, newReviewer, passGrace, unknownAttemptInReview, type Reviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { countFaultsFrom } from './support/fault-counter.js';

/**
 * Decisions with proof, on the real api, PostgreSQL and simulator. No worker runs: an unknown attempt stays
 * unknown until a person decides it. The provider's grace is ten minutes here, so "inside the grace" is the
 * natural state and a test that needs it over moves the attempt's last send back in the database.
 */
describe('review decisions', () => {
  let stack: TestStack;
  let alice: Reviewer;
  let bob: Reviewer;
  beforeAll(async () => {
    stack = await startTestStack({ env: { CONSISTENT_LOOKUP_GRACE_MS: '600000', RESOLUTION_BACKOFF_MS: '600000', PROVIDER_READ_TIMEOUT_MS: '1500', REVIEW_FOUR_EYES_AMOUNT_CENTS: '100000' } });
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, dropRate: 1, duplicates: 0, reorder: false } });
    alice = await newReviewer(stack, 'alice');
    bob = await newReviewer(stack, 'bob');
  });
  afterAll(async () => stack.close());

  const post = (path: string, who: Reviewer, body: Record<string, unknown> = {}) => stack.http.post(path).set(who.headers).send(body);
  const claim = (itemId: string, who: Reviewer) => post(`/review/items/${itemId}/claim`, who);
  const decide = (itemId: string, who: Reviewer, body: Record<string, unknown>) => post(`/review/items/${itemId}/decision`, who, body);
  const attempt = (id: string) => stack.db.getRepository(AttemptEntity).findOneByOrFail({ id });
  const item = (id: string) => stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ id });
  const reviewLookups = async (attemptId: string) =>
    (await stack.db.getRepository(ProviderCallEntity).find({ where: { attemptId, kind: 'lookup' }, order: { id: 'ASC' } })).filter((c) =>
      String((c.detail as { purpose?: string } | null)?.purpose ?? '').startsWith('review_'),
    );

  it('two reviewers racing to claim: exactly one holds the item, the other gets 409 naming the holder', async () => {
    const { itemId } = await unknownAttemptInReview(stack, 'hang_after_create');
    const results = await Promise.all([claim(itemId, alice), claim(itemId, bob)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!.body as { claimedBy: string; claimExpiresAt: string; state: string };
    const loser = results.find((r) => r.status === 409)!.body as { code: string; message: string };
    expect(winner.state).toBe('claimed');
    expect(loser.code).toBe('review_claimed_by_another');
    expect(loser.message).toContain(winner.claimedBy);
    // REVIEW_CLAIM_TTL_MS defaults to 15 minutes.
    const ttl = Date.parse(winner.claimExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1000);
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(alice.headers);
    expect(audit.body.filter((a: { action: string }) => a.action === 'claim')).toHaveLength(1);
  });

  it('two reviewers racing to decide: the claim holder decides, the other gets 409 and the attempt moves once', async () => {
    const { itemId, attemptId, intentId, charge } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    const body = { action: 'succeeded', providerChargeId: intentId, reason: 'the provider shows the intent succeeded' };
    const [a1, b, a2] = await Promise.all([decide(itemId, alice, body), decide(itemId, bob, body), decide(itemId, alice, body)]);
    expect(b.status).toBe(409);
    expect(b.body.code).toBe('review_claim_required');
    // Alice's own double click: one applies, the other finds the attempt settled or the item closed.
    expect([a1.status, a2.status].sort()).toEqual([200, 409]);
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:reviewer']);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });

  it('new evidence for an item being decided sends it back to the queue: the claim is dropped, the trail says why, and the old decision is refused', async () => {
    const { itemId, attemptId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    // A late provider fact reaches the attempt while Alice is deciding.
    await stack.db.transaction((em) => openReviewItem(em, attemptId, 'amount_mismatch', { providerChargeId: 'pi_other_amount' }));
    expect(await item(itemId)).toMatchObject({ state: 'open', claimedBy: null });
    const decision = await decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'decided on what I saw before' });
    expect(decision.status).toBe(409);
    expect((await attempt(attemptId)).status).toBe('unknown');
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(alice.headers);
    expect(audit.body.map((a: { action: string }) => a.action)).toEqual(['claim', 'reopen']);
    const shown = await stack.http.get(`/review/items/${itemId}`).set(alice.headers);
    expect(JSON.stringify(shown.body)).toContain('pi_other_amount');
  });

  it('decides an Asaas unknown: its payment is retrieved by id and must carry our reference and amount', async () => {
    const { itemId, attemptId } = await unknownAttemptInReview(stack, 'hang_after_create', { provider: 'asaas', currency: 'brl', billingType: 'CREDIT_CARD', customerIp: '203.0.113.7' });
    const [payment] = stack.sim.asaasPayments({ externalReference: attemptId });
    expect((await claim(itemId, alice)).status).toBe(200);
    const wrong = await decide(itemId, alice, { action: 'succeeded', providerChargeId: 'pay_000000000000', reason: 'a payment that does not exist' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('review_provider_evidence_refused');
    const ok = await decide(itemId, alice, { action: 'succeeded', providerChargeId: payment.id, reason: 'the payment was confirmed for the full amount' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await attempt(attemptId)).toMatchObject({ status: 'succeeded', providerRef: payment.id, resolvedBy: 'reviewer' });
  });

  it('an abandoned claim expires: the item is open again for anyone, and the old holder can no longer decide', async () => {
    const { itemId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    expect((await claim(itemId, bob)).status).toBe(409);
    // Fifteen minutes pass (by the database clock that every process reads).
    await stack.db.query(`UPDATE review_items SET claim_expires_at = now() - interval '1 second' WHERE id = $1`, [itemId]);
    const listed = await stack.http.get('/review/items?state=open&limit=200').set(bob.headers);
    const row = (listed.body.items as Array<{ id: string; state: string; claimedBy: string | null }>).find((i) => i.id === itemId);
    expect(row).toMatchObject({ state: 'open', claimedBy: null });
    const taken = await claim(itemId, bob);
    expect(taken.status).toBe(200);
    expect(taken.body.claimedBy).toBe(bob.name);
    const late = await decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'late decision from an old tab' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('review_claim_required');
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(bob.headers);
    expect(audit.body.at(-1)).toMatchObject({ action: 'claim', actor: bob.name, evidence: { lapsedClaimOf: alice.name } });
  });

  it('succeeded is refused when the named provider charge does not exist, is another attempt’s, or differs in amount or currency', async () => {
    const { itemId, attemptId, customerId, intentId, charge } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    const otherAttempts = await intentAtProvider(stack, { customer: customerId, attemptId: randomUUID(), amount: 4990, currency: 'usd' });
    const otherAmount = await intentAtProvider(stack, { customer: customerId, attemptId, amount: 4991, currency: 'usd' });
    const otherCurrency = await intentAtProvider(stack, { customer: customerId, attemptId, amount: 4990, currency: 'eur' });
    const cases: Array<[string, string]> = [
      ['pi_does_not_exist', 'has no charge pi_does_not_exist'],
      [otherAttempts, `not this attempt ${attemptId}`],
      [otherAmount, 'is for 4991, the charge is for 4990'],
      [otherCurrency, 'is in eur, the charge is in usd'],
    ];
    const retrievesBefore = stack.sim.stats().requests.retrieves;
    for (const [providerChargeId, why] of cases) {
      const res = await decide(itemId, alice, { action: 'succeeded', providerChargeId, reason: 'I think this is it' });
      expect(res.status, providerChargeId).toBe(409);
      expect(res.body.code).toBe('review_provider_evidence_refused');
      expect(res.body.message).toContain(why);
    }
    expect(stack.sim.stats().requests.retrieves - retrievesBefore).toBe(4);
    // Every lookup is kept as evidence, and nothing moved.
    expect((await reviewLookups(attemptId)).map((c) => c.outcome)).toEqual(['not_found', 'found', 'found', 'found']);
    expect((await attempt(attemptId)).status).toBe('unknown');
    expect((await item(itemId)).state).toBe('claimed');
    expect((await getCharge(stack, charge.id)).status).toBe('in_review');

    const ok = await decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'the intent carrying our reference succeeded' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: 'closed', attemptStatus: 'succeeded', decision: { action: 'succeeded', providerChargeId: intentId, decidedBy: alice.name } });
    const settled = await attempt(attemptId);
    expect(settled).toMatchObject({ status: 'succeeded', providerRef: intentId, resolvedBy: 'reviewer' });
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.reviewItems).toEqual([]);
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(alice.headers);
    expect(audit.body.at(-1)).toMatchObject({
      action: 'decide',
      actor: alice.name,
      decision: 'succeeded',
      stateBefore: 'claimed',
      stateAfter: 'closed',
      evidence: { check: 'retrieve_by_id', result: { kind: 'found', providerChargeId: intentId, amountCents: 4990, currency: 'usd', attemptId } },
    });
    const [transition] = await stack.db.query(`SELECT actor, cause FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'succeeded'`, [attemptId]);
    expect(transition).toEqual({ actor: alice.name, cause: 'reviewer' });
  });

  it('failed is refused inside the grace period without asking the provider, and while the provider shows a charge under our reference', async () => {
    const { itemId, attemptId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    const listsBefore = stack.sim.stats().requests.lists + stack.sim.stats().requests.retrieves;
    const early = await decide(itemId, alice, { action: 'failed', reason: 'nothing in the dashboard' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/may still be executing the last request/);
    expect(early.body.details.evidence.remainingMs).toBeGreaterThan(500_000);
    expect(stack.sim.stats().requests.lists + stack.sim.stats().requests.retrieves).toBe(listsBefore);

    await passGrace(stack, attemptId);
    const found = await decide(itemId, alice, { action: 'failed', reason: 'nothing in the dashboard' });
    expect(found.status).toBe(409);
    expect(found.body.message).toContain(`the provider shows ${intentId} (succeeded) under this attempt's reference`);
    expect(stack.sim.stats().requests.lists).toBeGreaterThan(0);
    expect((await reviewLookups(attemptId)).map((c) => c.outcome)).toEqual(['found']);
    expect((await attempt(attemptId)).status).toBe('unknown');
  });

  it('failed after the grace with nothing at the provider: the charge leaves in_review, and the next submit opens a new key; the provider ends with one success', async () => {
    const faults = countFaultsFrom(stack.sim);
    const { itemId, attemptId, charge, customerId } = await unknownAttemptInReview(stack, '500_before_create');
    expect(faults('500_before_create')).toBe(1);
    expect((await getCharge(stack, charge.id)).status).toBe('in_review');
    // In review, submit opens nothing.
    expect((await submit(stack, charge.id)).attempts).toHaveLength(1);
    expect((await claim(itemId, alice)).status).toBe(200);
    await passGrace(stack, attemptId);
    const res = await decide(itemId, alice, { action: 'failed', reason: 'consistent list shows nothing under our reference' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'closed', attemptStatus: 'failed', decision: { action: 'failed', decidedBy: alice.name } });
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(alice.headers);
    expect(audit.body.at(-1).evidence).toMatchObject({ check: 'consistent_lookup', result: { kind: 'not_found', consistent: true } });
    expect(Date.parse(audit.body.at(-1).evidence.queriedAt)).toBeGreaterThanOrEqual(Date.parse(audit.body.at(-1).evidence.graceEndsAt));
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→failed:reviewer']);
    expect((await getCharge(stack, charge.id)).status).toBe('failed');

    const retried = await submit(stack, charge.id);
    expect(retried.status).toBe('succeeded');
    expect(retried.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    expect(retried.attempts[1].idempotencyKey).not.toBe(retried.attempts[0].idempotencyKey);
    const intents = stack.sim.intents({ customerId });
    expect(intents.filter((i) => i.status === 'succeeded')).toHaveLength(1);
  });

  it('above the four-eyes threshold a decision waits for a different reviewer, who re-asks the provider; the same reviewer cannot confirm', async () => {
    const { itemId, attemptId, intentId, charge } = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 150_000 });
    expect((await claim(itemId, alice)).status).toBe(200);
    const proposed = await decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'intent succeeded' });
    expect(proposed.status).toBe(200);
    expect(proposed.body).toMatchObject({ state: 'awaiting_second', fourEyes: true, decision: { action: 'succeeded', decidedBy: alice.name } });
    expect((await attempt(attemptId)).status).toBe('unknown');
    expect((await getCharge(stack, charge.id)).status).toBe('in_review');

    const self = await post(`/review/items/${itemId}/confirm`, alice, { reason: 'confirming my own' });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('review_second_reviewer_required');
    // The database refuses it too, whatever the code does.
    await expect(stack.db.query(`UPDATE review_items SET confirmed_by = decided_by WHERE id = $1`, [itemId])).rejects.toThrow(/review_items_four_eyes_check/);

    const retrievesBefore = stack.sim.stats().requests.retrieves;
    const confirmed = await post(`/review/items/${itemId}/confirm`, bob, { reason: 'checked the dashboard too' });
    expect(confirmed.status).toBe(200);
    expect(stack.sim.stats().requests.retrieves).toBe(retrievesBefore + 1);
    expect(confirmed.body).toMatchObject({ state: 'closed', confirmedBy: bob.name, decision: { decidedBy: alice.name } });
    expect(await attempt(attemptId)).toMatchObject({ status: 'succeeded', providerRef: intentId });
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(bob.headers);
    expect(audit.body.map((a: { action: string; actor: string }) => `${a.action}:${a.actor === alice.name ? 'alice' : 'bob'}`)).toEqual(['claim:alice', 'decide:alice', 'confirm:bob']);
  });

  it('a second reviewer may reject a four-eyes decision: the item is open again and nothing moved; an admin counts as one reviewer, never both', async () => {
    const admin = await newReviewer(stack, 'root', 'admin');
    const { itemId, attemptId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 100_000 });
    expect((await claim(itemId, admin)).status).toBe(200);
    expect((await decide(itemId, admin, { action: 'succeeded', providerChargeId: intentId, reason: 'intent succeeded' })).body.state).toBe('awaiting_second');
    expect((await post(`/review/items/${itemId}/confirm`, admin, { reason: 'me again' })).status).toBe(403);
    const rejected = await post(`/review/items/${itemId}/reject`, bob, { reason: 'the customer disputes it; look again' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ state: 'open', decision: null, claimedBy: null });
    expect((await attempt(attemptId)).status).toBe('unknown');
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(bob.headers);
    expect(audit.body.at(-1)).toMatchObject({ action: 'reject', actor: bob.name, stateBefore: 'awaiting_second', stateAfter: 'open', evidence: { rejectedProposal: { action: 'succeeded', decidedBy: admin.name } } });
  });

  it('acknowledge closes a late-truth item on a terminal attempt with a follow-up and leaves the attempt untouched', async () => {
    const charge = await createCharge(stack);
    const done = await submit(stack, charge.id);
    expect(done.status).toBe('succeeded');
    const attemptId = done.attempts[0].id;
    await stack.db.transaction((em) => openReviewItem(em, attemptId, 'duplicate_provider_charges', { providerChargeId: 'pi_second' }));
    const itemId = (await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ attemptId })).id;
    // A plain `succeeded` no longer hides the item waiting about it.
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.reviewItems).toEqual([{ id: itemId, reason: 'duplicate_provider_charges', state: 'open' }]);
    const before = await transitionsOf(stack, attemptId);

    expect((await claim(itemId, alice)).status).toBe(200);
    const wrong = await decide(itemId, alice, { action: 'failed', reason: 'refund it' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toContain('terminal status is never rewritten');
    const missing = await decide(itemId, alice, { action: 'acknowledge', reason: 'refund the second charge' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('followUp');
    const bad = await decide(itemId, alice, { action: 'acknowledge', followUp: 'shrug', reason: 'refund the second charge' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('followUp must be one of');

    const unnamed = await decide(itemId, alice, { action: 'acknowledge', followUp: 'refund_needed', reason: 'refund the second charge' });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toContain('providerChargeId');

    // The money to give back must be proven at the provider: captured, and carrying this charge's reference.
    const [stranger] = stack.sim.plantCharges([{ amount: charge.amountCents }]);
    const unproven = await decide(itemId, alice, { action: 'acknowledge', followUp: 'refund_needed', providerChargeId: stranger.paymentIntentId, reason: 'refund the second charge' });
    expect(unproven.status).toBe(422);
    expect(unproven.body).toMatchObject({ code: 'review_refund_unproven', details: { field: 'providerChargeId' } });
    const missingAtProvider = await decide(itemId, alice, { action: 'acknowledge', followUp: 'refund_needed', providerChargeId: 'pi_nothing_here', reason: 'refund the second charge' });
    expect(missingAtProvider.status).toBe(422);
    // Its own capture is refunded through the charge, never through a proposal beside the charge's cap.
    const own = await decide(itemId, alice, { action: 'acknowledge', followUp: 'refund_needed', providerChargeId: done.attempts[0].providerChargeId, reason: 'refund the charge' });
    expect(own.status).toBe(422);
    expect(own.body.code).toBe('review_follow_up_mismatch');
    expect(await stack.db.query(`SELECT id FROM refund_proposals WHERE review_item_id = $1`, [itemId])).toEqual([]);

    // A second provider charge under our reference, for another amount: the proposal is for what it really holds.
    const second = await intentAtProvider(stack, { customer: charge.customerId, attemptId, amount: charge.amountCents - 10, currency: charge.currency });
    const ok = await decide(itemId, alice, { action: 'acknowledge', followUp: 'refund_needed', providerChargeId: second, reason: 'refund the second charge' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [proposal] = await stack.db.query(`SELECT id, provider_charge_id, charge_id, amount_cents::int AS amount, reason, state, proposed_by FROM refund_proposals WHERE review_item_id = $1`, [itemId]);
    expect(proposal).toMatchObject({ provider_charge_id: second, charge_id: charge.id, amount: charge.amountCents - 10, reason: 'review', state: 'proposed', proposed_by: alice.name });
    const approved = await stack.http.post(`/reconciliation/refund-proposals/${proposal.id}/approve`).set(stack.auth('admin')).send({});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(stack.sim.refunds({ paymentIntentId: second }).map((r) => r.amount)).toEqual([charge.amountCents - 10]);
    expect(ok.body).toMatchObject({ state: 'closed', attemptStatus: 'succeeded', decision: { action: 'acknowledge', followUp: 'refund_needed' } });
    expect(await transitionsOf(stack, attemptId)).toEqual(before);
    expect(await attempt(attemptId)).toMatchObject({ status: 'succeeded', resolvedBy: 'submit' });
    expect((await getCharge(stack, charge.id)).reviewItems).toEqual([]);
    const [row] = await stack.db.query(`SELECT count(*)::int AS n FROM review_items WHERE id = $1 AND follow_up = 'refund_needed' AND closed_at IS NOT NULL`, [itemId]);
    expect(row.n).toBe(1);
  });

  it('a success that would be the charge’s second is never applied: the item becomes duplicate_provider_charges', async () => {
    const { itemId, attemptId, intentId, charge } = await unknownAttemptInReview(stack, 'hang_after_create');
    // Another attempt of the same charge already succeeded (planted: the open-attempt index allows a settled sibling).
    await stack.db.query(
      `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, resolved_at, resolved_by)
       SELECT gen_random_uuid(), charge_id, gen_random_uuid(), provider, 'succeeded', 'pi_earlier_success', payload, payload_hash, now(), 'webhook'
         FROM attempts WHERE id = $1`,
      [attemptId],
    );
    expect((await claim(itemId, alice)).status).toBe(200);
    const res = await decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'the intent succeeded' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'review_second_provider_charge', details: { reason: 'duplicate_provider_charges' } });
    expect((await attempt(attemptId)).status).toBe('unknown');
    expect(await item(itemId)).toMatchObject({ reason: 'duplicate_provider_charges', state: 'claimed' });
    const audit = await stack.http.get(`/review/items/${itemId}/audit`).set(alice.headers);
    expect(audit.body.at(-1)).toMatchObject({ action: 'escalate', evidence: { fromReason: 'tries_exhausted', toReason: 'duplicate_provider_charges', providerChargeId: intentId } });
    expect((await getCharge(stack, charge.id)).reviewItems).toEqual([{ id: itemId, reason: 'duplicate_provider_charges', state: 'claimed' }]);
  });

  it('a decision that loses a race with a webhook is a 409 showing the webhook’s result, and changes nothing', async () => {
    const { itemId, attemptId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create');
    expect((await claim(itemId, alice)).status).toBe(200);
    // The provider answers the reviewer's lookup slowly; the webhook lands while that lookup is in flight.
    stack.sim.configure({ queryLatencyMs: 700 });
    try {
      const retrievesBefore = stack.sim.stats().requests.retrieves;
      const decision = decide(itemId, alice, { action: 'succeeded', providerChargeId: intentId, reason: 'intent succeeded' }).then((r) => r);
      await waitFor(async () => stack.sim.stats().requests.retrieves, (n) => n > retrievesBefore, 5_000, 'the reviewer’s lookup to reach the provider');
      const delivery = await stack.sim.sendWebhook({ eventType: 'payment_intent.succeeded', intentId: intentId! });
      expect(delivery).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
      const res = await decision;
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'review_attempt_settled', details: { attemptStatus: 'succeeded', resolvedBy: 'webhook' } });
    } finally {
      stack.sim.configure({ queryLatencyMs: 0 });
    }
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:webhook']);
    // The item is still the reviewer's, to acknowledge.
    expect((await item(itemId)).state).toBe('claimed');
    const ack = await decide(itemId, alice, { action: 'acknowledge', followUp: 'no_action', reason: 'the webhook settled it' });
    expect(ack.status).toBe(200);
  });
});
