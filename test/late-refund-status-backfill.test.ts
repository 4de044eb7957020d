import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LateRefundStatusBackfill1764680398000 } from '../migrations/1764680398000-LateRefundStatusBackfill.js';
import { getCharge } from './support/charges.js';
import { getRefund, refund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * A late refund recorded before LateRefundPublicStatus / LateRefundAmountInReview kept the list status (and the
 * announced status) the old rule gave it. The backfill migration's up, run on a database where such a refund is
 * planted as those migrations left it (the late columns written with triggers off, as the old late-fact trigger
 * ignored them), brings the lists and the events to what a live late fact writes now. Real api over the simulator.
 */
describe('the late refund status backfill', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  /** A charge of 1 000 and a refund of 400 the simulator declined: failed by us, refund.failed announced. */
  async function declinedRefundOf400() {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId, amountCents: 1000 });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    try {
      const declined = await refund(stack, charge.id, 400);
      expect(declined.status).toBe('failed');
      return { chargeId: charge.id, refundId: declined.id, attemptId: declined.attempts[0].id };
    } finally {
      stack.sim.setFaults({});
    }
  }

  /** The state a late refund recorded before the new rules left: nothing reacts (triggers off), as nothing did then. */
  async function plantStale(p: { attemptId: string; lateCents: number; openItem: boolean; lists: Record<string, string>; announced: Record<string, string> }) {
    const q = stack.db.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      await q.query(`SET LOCAL session_replication_role = replica`);
      await q.query(
        `UPDATE attempts SET late_refunded_at = now(), late_refund_provider_ref = $2, late_refund_amount_cents = $3 WHERE id = $1 AND status = 'failed'`,
        [p.attemptId, `re_late_${p.attemptId}`, p.lateCents],
      );
      if (p.openItem) {
        await q.query(`INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, 'amount_mismatch', '{}', 'open')`, [randomUUID(), p.attemptId]);
      }
      for (const [id, status] of Object.entries(p.lists)) await q.query(`UPDATE list_statuses SET status = $2 WHERE object_id = $1`, [id, status]);
      for (const [id, status] of Object.entries(p.announced)) await q.query(`UPDATE event_objects SET last_status = $2 WHERE object_id = $1`, [id, status]);
      await q.commitTransaction();
    } finally {
      await q.release();
    }
  }

  async function runUp(): Promise<void> {
    const q = stack.db.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      await new LateRefundStatusBackfill1764680398000().up(q);
      await q.commitTransaction();
    } finally {
      await q.release();
    }
  }

  const listStatus = async (id: string) => (await stack.db.query<Array<{ status: string }>>(`SELECT status FROM list_statuses WHERE object_id = $1`, [id]))[0]?.status;
  const events = async (id: string) =>
    stack.db.query<Array<{ type: string; status: string; cents: number }>>(
      `SELECT type, object->>'status' AS status, (object->>'amountCents')::int AS cents FROM events WHERE object_id = $1 ORDER BY seq`,
      [id],
    );

  it('a refund refunded late for our amount lists as succeeded, says refund.succeeded once, and its charge follows', async () => {
    const { chargeId, refundId, attemptId } = await declinedRefundOf400();
    await plantStale({ attemptId, lateCents: 400, openItem: false, lists: { [refundId]: 'failed', [chargeId]: 'succeeded' }, announced: { [refundId]: 'failed', [chargeId]: 'succeeded' } });
    // Planted as stale: the view derives the new rule, the list and the feed do not.
    expect((await getRefund(stack, refundId)).status).toBe('succeeded');
    expect(await listStatus(refundId)).toBe('failed');
    const chargeEventsBefore = await events(chargeId);

    await runUp();

    expect(await listStatus(refundId)).toBe('succeeded');
    expect(await listStatus(chargeId)).toBe('partially_refunded');
    const listed = await stack.http.get(`/refunds?chargeId=${chargeId}&status=succeeded`).set(stack.auth('merchant'));
    expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual([refundId]);
    expect((await getRefund(stack, refundId)).status).toBe('succeeded');
    expect((await getCharge(stack, chargeId)).status).toBe('partially_refunded');
    expect(await events(refundId)).toEqual([
      { type: 'refund.failed', status: 'failed', cents: 400 },
      { type: 'refund.succeeded', status: 'succeeded', cents: 400 },
    ]);
    expect((await events(chargeId)).slice(chargeEventsBefore.length).map((e) => e.type)).toEqual(['charge.partially_refunded']);

    // Idempotent: run again, nothing more is written.
    await runUp();
    expect(await events(refundId)).toHaveLength(2);
    expect(await events(chargeId)).toHaveLength(chargeEventsBefore.length + 1);
  });

  it('a refund refunded late for another amount, its item open, lists as in_review and its charge as refund_pending, announcing nothing', async () => {
    const { chargeId, refundId, attemptId } = await declinedRefundOf400();
    // As LateRefundPublicStatus left it before LateRefundAmountInReview: succeeded for our amount, already announced.
    await plantStale({ attemptId, lateCents: 300, openItem: true, lists: { [refundId]: 'succeeded', [chargeId]: 'partially_refunded' }, announced: { [refundId]: 'succeeded', [chargeId]: 'partially_refunded' } });
    const refundEvents = (await events(refundId)).length;
    const chargeEvents = (await events(chargeId)).length;

    await runUp();

    expect(await listStatus(refundId)).toBe('in_review');
    expect(await listStatus(chargeId)).toBe('refund_pending');
    expect((await getRefund(stack, refundId)).status).toBe('in_review');
    expect(await events(refundId)).toHaveLength(refundEvents);
    expect(await events(chargeId)).toHaveLength(chargeEvents);
  });
});
