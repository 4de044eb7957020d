import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptStatus } from '@app/attempts/rules';
import { deriveChargeStatus } from '@app/charges';
import { deriveRefundStatus } from '@app/refunds';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * The outbox derives an object's public status in SQL (charge_public_status, refund_public_status,
 * payout_public_status, in the MerchantEvents migration) to decide at commit whether an event is due; the api
 * derives it in TypeScript for GET. If the two ever disagreed, a merchant would get an event for a status GET never
 * shows, or none for one it does. Every combination of attempts, review items and refunds the schema allows is
 * planted (triggers off, so nothing else reacts), and each object's SQL status is held to the TypeScript one.
 */
type Kind = AttemptStatus | 'late';
const KINDS: readonly Kind[] = ['pending', 'unknown', 'succeeded', 'failed', 'late'];
const REVIEW_STATES = [null, 'open', 'claimed', 'closed'] as const;
type ReviewState = (typeof REVIEW_STATES)[number];

/** Every sequence of up to three attempts the partial unique indexes allow: one open, one success or late capture. */
function attemptSequences(): Kind[][] {
  const all: Kind[][] = [[]];
  for (let length = 1; length <= 3; length++) {
    let level: Kind[][] = [[]];
    for (let i = 0; i < length; i++) level = level.flatMap((seq) => KINDS.map((k) => [...seq, k]));
    all.push(...level);
  }
  const open = (s: Kind[]) => s.filter((k) => k === 'pending' || k === 'unknown').length;
  const done = (s: Kind[]) => s.filter((k) => k === 'succeeded' || k === 'late').length;
  return all.filter((s) => open(s) <= 1 && done(s) <= 1);
}

interface Rows {
  charges: object[];
  refunds: object[];
  payouts: object[];
  attempts: object[];
  reviewItems: object[];
}

describe('the outbox status rules in SQL', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  const newRows = (): Rows => ({ charges: [], refunds: [], payouts: [], attempts: [], reviewItems: [] });

  /** The attempts of `kinds` for one owner, and a review item on the first of them in `review`. */
  function plantAttempts(rows: Rows, owner: { charge_id?: string; refund_id?: string; payout_id?: string }, operation: string, kinds: Kind[], review: ReviewState, lateRefundCents = 100): void {
    const ids = kinds.map((kind, i) => {
      const id = randomUUID();
      const late = kind === 'late';
      rows.attempts.push({
        id, operation, ...owner, idempotency_key: randomUUID(), provider: 'stripe', status: late ? 'failed' : kind, payload: '{}', payload_hash: '0'.repeat(64),
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        late_captured_at: late && operation === 'charge' ? new Date().toISOString() : null,
        late_capture_provider_charge_id: late && operation === 'charge' ? `pi_late_${id}` : null,
        late_executed_at: late && operation === 'payout' ? new Date().toISOString() : null,
        late_execution_end_to_end_id: late && operation === 'payout' ? `E2E${id}` : null,
        late_refunded_at: late && operation === 'refund' ? new Date().toISOString() : null,
        late_refund_provider_ref: late && operation === 'refund' ? `re_late_${id}` : null,
        late_refund_amount_cents: late && operation === 'refund' ? lateRefundCents : null,
      });
      return id;
    });
    if (review && ids.length > 0) {
      rows.reviewItems.push({
        id: randomUUID(), attempt_id: ids[0], reason: 'unknown_outcome', evidence: {}, state: review,
        claimed_by: review === 'claimed' ? 'reviewer' : null, claim_expires_at: review === 'claimed' ? new Date(Date.now() + 60_000).toISOString() : null,
      });
    }
  }

  const tsAttempts = (kinds: Kind[], lateRefundCents = 100) =>
    kinds.map((k) => (k === 'late' ? { status: 'failed' as const, lateCapturedAt: new Date(), lateRefundedAt: new Date(), lateRefundAmountCents: lateRefundCents } : { status: k }));
  const isOpen = (review: ReviewState) => review !== null && review !== 'closed';

  /** Plants `rows` in one transaction with triggers off, reads `statusSql` for each id, and rolls everything back. */
  async function statusesOf(rows: Rows, statusSql: string, ids: string[]): Promise<Map<string, string>> {
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SET LOCAL session_replication_role = replica`);
      const plant = async (table: string, records: object[]) => {
        if (records.length === 0) return;
        const columns = Object.keys(records[0]);
        await runner.query(
          `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
          [JSON.stringify(records)],
        );
      };
      await plant('charges', rows.charges);
      await plant('refunds', rows.refunds);
      await plant('payouts', rows.payouts);
      await plant('attempts', rows.attempts);
      await plant('review_items', rows.reviewItems);
      const read = (await runner.query(`SELECT id, ${statusSql}(id) AS status FROM unnest($1::uuid[]) AS id`, [ids])) as Array<{ id: string; status: string }>;
      return new Map(read.map((r) => [r.id, r.status]));
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  }

  it('refund_public_status is deriveRefundStatus for every attempt sequence and review state, a late refund counting as made', async () => {
    const rows = newRows();
    const expected = new Map<string, { case: string; status: string }>();
    for (const kinds of attemptSequences()) {
      for (const review of REVIEW_STATES) {
        // 100 as the late refund's amount, or 150: the provider refunded another amount than ours.
        for (const amount of [100, 150]) {
          const id = randomUUID();
          rows.refunds.push({ id, charge_id: randomUUID(), merchant_id: randomUUID(), amount_cents: amount, currency: 'usd', created_by: 'test' });
          plantAttempts(rows, { refund_id: id }, 'refund', kinds, review);
          expected.set(id, { case: `${kinds.join(',') || '-'} review=${review} amount=${amount}`, status: deriveRefundStatus(tsAttempts(kinds), isOpen(review) && kinds.length > 0, amount) });
        }
      }
    }
    const sql = await statusesOf(rows, 'refund_public_status', [...expected.keys()]);
    const mismatches = [...expected].filter(([id, e]) => sql.get(id) !== e.status).map(([id, e]) => `${e.case}: ts ${e.status}, sql ${sql.get(id)}`);
    expect(mismatches).toEqual([]);
    expect(expected.size).toBeGreaterThan(300);
    // The rule the amounts change: a lone late refund of another amount is before a person while its item is open.
    const lateOf150 = [...expected.values()].filter((e) => e.case.startsWith('late review=') && e.case.endsWith('amount=150'));
    expect(Object.fromEntries(lateOf150.map((e) => [e.case, e.status]))).toMatchObject({ 'late review=open amount=150': 'in_review', 'late review=closed amount=150': 'succeeded' });
  });

  it('payout_public_status is the payout view\'s status, a late execution counting as paid', async () => {
    const rows = newRows();
    const expected = new Map<string, { case: string; status: string }>();
    for (const kinds of attemptSequences()) {
      for (const review of REVIEW_STATES) {
        const id = randomUUID();
        rows.payouts.push({ id, account_id: randomUUID(), amount_cents: 100, currency: 'brl', provider: 'efi', pix_key: 'a@b.co', pix_key_type: 'email', created_by: 'test' });
        plantAttempts(rows, { payout_id: id }, 'payout', kinds, review);
        // As toPayoutView derives it.
        const status = deriveRefundStatus(kinds.map((k) => ({ status: k === 'late' ? 'succeeded' : k })), isOpen(review) && kinds.length > 0);
        expected.set(id, { case: `${kinds.join(',') || '-'} review=${review}`, status });
      }
    }
    const sql = await statusesOf(rows, 'payout_public_status', [...expected.keys()]);
    const mismatches = [...expected].filter(([id, e]) => sql.get(id) !== e.status).map(([id, e]) => `${e.case}: ts ${e.status}, sql ${sql.get(id)}`);
    expect(mismatches).toEqual([]);
  });

  it('charge_public_status is deriveChargeStatus for every attempt sequence, review state and set of refunds', async () => {
    type RefundCase = { amount: number; attempts: Kind[]; review: ReviewState; lateCents?: number };
    const REFUND_SETS: RefundCase[][] = [
      [],
      [{ amount: 400, attempts: ['succeeded'], review: null }],
      [{ amount: 1000, attempts: ['succeeded'], review: null }],
      [{ amount: 400, attempts: ['failed', 'succeeded'], review: null }, { amount: 600, attempts: ['succeeded'], review: null }],
      [{ amount: 400, attempts: [], review: null }],
      [{ amount: 400, attempts: ['pending'], review: null }],
      [{ amount: 400, attempts: ['unknown'], review: 'open' }],
      [{ amount: 400, attempts: ['failed'], review: 'closed' }],
      [{ amount: 1000, attempts: ['failed'], review: null }],
      [{ amount: 400, attempts: ['succeeded'], review: null }, { amount: 600, attempts: ['failed'], review: null }],
      [{ amount: 400, attempts: ['late', 'failed'], review: 'open' }],
      [{ amount: 400, attempts: ['succeeded'], review: null }, { amount: 200, attempts: ['unknown'], review: null }],
      // The provider refunded 300 late where we asked 400: before a person while the item is open, then made.
      [{ amount: 400, attempts: ['late'], review: 'open', lateCents: 300 }],
      [{ amount: 400, attempts: ['late'], review: 'closed', lateCents: 300 }],
    ];
    const rows = newRows();
    const expected = new Map<string, { case: string; status: string }>();
    for (const kinds of attemptSequences()) {
      const captured = kinds.includes('succeeded') || kinds.includes('late');
      for (const review of REVIEW_STATES) {
        for (const [setIndex, refunds] of (captured ? REFUND_SETS : REFUND_SETS.slice(0, 2)).entries()) {
          const id = randomUUID();
          const merchant = randomUUID();
          rows.charges.push({ id, order_id: `o-${id}`, amount_cents: 1000, currency: 'usd', customer_id: 'cus', provider: 'stripe', created_by: 'test', merchant_id: merchant });
          plantAttempts(rows, { charge_id: id }, 'charge', kinds, review);
          const tsRefunds = refunds.map((r) => {
            const refundId = randomUUID();
            rows.refunds.push({ id: refundId, charge_id: id, merchant_id: merchant, amount_cents: r.amount, currency: 'usd', created_by: 'test' });
            const lateCents = r.lateCents ?? r.amount;
            plantAttempts(rows, { refund_id: refundId, charge_id: id }, 'refund', r.attempts, r.review, lateCents);
            return { amountCents: r.amount, status: deriveRefundStatus(tsAttempts(r.attempts, lateCents), isOpen(r.review) && r.attempts.length > 0, r.amount) };
          });
          const status = deriveChargeStatus(tsAttempts(kinds), isOpen(review) && kinds.length > 0, tsRefunds, 1000);
          expected.set(id, { case: `${kinds.join(',') || '-'} review=${review} refunds#${setIndex}`, status });
        }
      }
    }
    const sql = await statusesOf(rows, 'charge_public_status', [...expected.keys()]);
    const mismatches = [...expected].filter(([id, e]) => sql.get(id) !== e.status).map(([id, e]) => `${e.case}: ts ${e.status}, sql ${sql.get(id)}`);
    expect(mismatches).toEqual([]);
    // Every status a charge can show is reached by some case (the matrix is not vacuous).
    expect(new Set([...expected.values()].map((e) => e.status))).toEqual(
      new Set(['created', 'processing', 'in_review', 'succeeded', 'refund_pending', 'partially_refunded', 'refunded', 'failed']),
    );
  });
});
