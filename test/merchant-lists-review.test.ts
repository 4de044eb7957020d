import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewItemEntity } from '@app/database';
import { openReviewItem } from '@app/review/items';
import { createCharge, submit } from './support/charges.js';
import { newReviewer, unknownAttemptInReview, type Reviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * A charge leaves `in_review` in the merchant's list when a person closes its review item through the review api:
 * the stored list status (list_statuses, kept at commit) is derived again in the decision's commit, so the filter
 * and the charge's own view never disagree. No worker runs: only the person's decision moves anything.
 */
describe('merchant lists after a review decision', () => {
  let stack: TestStack;
  let alice: Reviewer;
  beforeAll(async () => {
    stack = await startTestStack();
    alice = await newReviewer(stack, 'alice');
  });
  afterAll(async () => stack?.close());

  const list = async (path: string) => {
    const res = await stack.http.get(path).set(stack.auth('merchant'));
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as { items: Array<{ id: string; status: string }>; nextCursor: string | null };
  };
  const listedIds = async (status: string) => (await list(`/charges?status=${status}&limit=200`)).items.map((c) => c.id);

  /** The charge's status as its own view derives it, and as its list row (found by order id) stores it: equal. */
  async function statusEverywhere(chargeId: string): Promise<string> {
    const view = await stack.http.get(`/charges/${chargeId}`).set(stack.auth('merchant'));
    expect(view.status).toBe(200);
    const listed = await list(`/charges?orderId=${encodeURIComponent(view.body.orderId as string)}`);
    expect(listed.items.map((c) => ({ id: c.id, status: c.status }))).toEqual([{ id: chargeId, status: view.body.status }]);
    return view.body.status as string;
  }

  async function inReviewListed(chargeId: string): Promise<void> {
    expect(await statusEverywhere(chargeId)).toBe('in_review');
    expect(await listedIds('in_review')).toContain(chargeId);
  }

  async function close(itemId: string, body: Record<string, unknown>): Promise<void> {
    const claimed = await stack.http.post(`/review/items/${itemId}/claim`).set(alice.headers).send({});
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    const decided = await stack.http.post(`/review/items/${itemId}/decision`).set(alice.headers).send(body);
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.state).toBe('closed');
  }

  it('lists an unknown charge a reviewer decides succeeded as succeeded, and no longer under status=in_review', async () => {
    const { charge, itemId, intentId } = await unknownAttemptInReview(stack, 'hang_after_create');
    await inReviewListed(charge.id);
    await close(itemId, { action: 'succeeded', providerChargeId: intentId, reason: 'the provider shows the intent succeeded' });
    expect(await statusEverywhere(charge.id)).toBe('succeeded');
    expect(await listedIds('in_review')).not.toContain(charge.id);
    expect(await listedIds('succeeded')).toContain(charge.id);
  });

  it('lists an unknown charge a reviewer decides failed as failed, and no longer under status=in_review', async () => {
    // The provider never created anything; CONSISTENT_LOOKUP_GRACE_MS is 0 here, so a consistent lookup may decide now.
    const { charge, itemId } = await unknownAttemptInReview(stack, '500_before_create');
    await inReviewListed(charge.id);
    await close(itemId, { action: 'failed', reason: 'a consistent lookup shows nothing under our reference' });
    expect(await statusEverywhere(charge.id)).toBe('failed');
    expect(await listedIds('in_review')).not.toContain(charge.id);
    expect(await listedIds('failed')).toContain(charge.id);
  });

  it('takes a declined charge out of in_review when its late-truth item is acknowledged, though no attempt moves', async () => {
    // Closing the item is the only write of this decision: no attempt transition announces the charge.
    const declined = await submit(stack, (await createCharge(stack, { paymentMethodId: 'pm_card_chargeDeclined' })).id);
    expect(declined.status).toBe('failed');
    const attemptId = declined.attempts[0].id;
    expect(await stack.db.transaction((em) => openReviewItem(em, attemptId, 'duplicate_provider_charges', { providerChargeId: 'pi_elsewhere' }))).toBe(true);
    const itemId = (await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ attemptId })).id;
    await inReviewListed(declined.id);
    const transitions = await stack.db.query(`SELECT count(*)::int AS n FROM attempt_transitions WHERE attempt_id = $1`, [attemptId]);
    await close(itemId, { action: 'acknowledge', followUp: 'no_action', reason: 'the other charge was already refunded by hand' });
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM attempt_transitions WHERE attempt_id = $1`, [attemptId])).toEqual(transitions);
    expect(await statusEverywhere(declined.id)).toBe('failed');
    expect(await listedIds('in_review')).not.toContain(declined.id);
    expect(await listedIds('failed')).toContain(declined.id);
  });
});
