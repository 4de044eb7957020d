import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptTransitionWriter, ChargeAlreadyCapturedError, ProviderFactApplier, type TransitionCause } from '@app/attempts';
import { ChargeAttemptOpener } from '@app/charges';
import { isUniqueViolation } from '@app/database';
import { createCharge } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * DESIGN.md section 8, "once the provider holds a captured charge for any attempt of a charge, that charge never
 * opens another attempt", as a property over interleavings of everything that can tell us about money (a webhook,
 * a resolver lookup, a statement line, a person) and a customer submitting again, through the real opener,
 * applier and transition writer on the real PostgreSQL. What the provider answers a send is generated (captured,
 * declined, timed out), so no network call is made except the re-check the opener asks of the simulator, which
 * holds none of these attempts (a clean miss).
 */
type Op =
  | { kind: 'submit'; answer: 'captured' | 'declined' | 'timeout' }
  | { kind: 'resolve'; found: boolean }
  | { kind: 'late_success'; source: 'webhook' | 'lookup' | 'statement'; pick: number }
  | { kind: 'person'; act: 'close_items' | 'decide_succeeded' };

const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('submit' as const), answer: fc.constantFrom('captured' as const, 'declined' as const, 'timeout' as const) }),
  fc.record({ kind: fc.constant('resolve' as const), found: fc.boolean() }),
  fc.record({ kind: fc.constant('late_success' as const), source: fc.constantFrom('webhook' as const, 'lookup' as const, 'statement' as const), pick: fc.nat(4) }),
  fc.record({ kind: fc.constant('person' as const), act: fc.constantFrom('close_items' as const, 'decide_succeeded' as const) }),
);

const CAUSE: Record<'webhook' | 'lookup' | 'statement', TransitionCause> = { webhook: 'webhook', lookup: 'resolver', statement: 'reconciliation' };

describe('no interleaving yields two captured attempts for one charge', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  interface Row { id: string; status: string; late_captured_at: Date | null }
  const attemptsOf = (chargeId: string) =>
    stack.db.query<Row[]>(`SELECT id, status, late_captured_at FROM attempts WHERE charge_id = $1 AND operation = 'charge' ORDER BY created_at, id`, [chargeId]);
  const captured = (rows: Row[]) => rows.filter((r) => r.status === 'succeeded' || r.late_captured_at !== null);

  async function run(chargeId: string, op: Op, told: Set<string>): Promise<void> {
    const opener = stack.app.get(ChargeAttemptOpener);
    const transitions = stack.app.get(AttemptTransitionWriter);
    const facts = stack.app.get(ProviderFactApplier);
    const rows = await attemptsOf(chargeId);
    const open = rows.find((r) => r.status === 'pending' || r.status === 'unknown');
    const success = (attemptId: string) => ({ outcome: 'succeeded' as const, providerChargeId: `pi_${attemptId.replace(/-/g, '')}`, amountCents: 4990, currency: 'usd' });
    switch (op.kind) {
      case 'submit': {
        let opened;
        try {
          opened = await opener.openOrReuse(chargeId, 'customer');
        } catch (error) {
          if (error instanceof ChargeAlreadyCapturedError) return;
          throw error;
        }
        if (opened.kind !== 'open' || opened.attempt.status !== 'pending') return;
        const id = opened.attempt.id;
        if (op.answer === 'captured') told.add(id);
        const to = op.answer === 'captured' ? 'succeeded' : op.answer === 'declined' ? 'failed' : 'unknown';
        const set = op.answer === 'captured' ? { providerRef: success(id).providerChargeId } : {};
        // A success the database refuses (a second capture) is a provider fact like any other: it goes to the applier.
        const moved = await transitions.apply({ attemptId: id, from: 'pending', to, cause: 'submit', actor: 'submit', set }).catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
          return false;
        });
        if (!moved && op.answer === 'captured') await stack.db.transaction((em) => facts.apply(em, id, success(id), { cause: 'submit', actor: 'submit', evidence: {} }));
        return;
      }
      case 'resolve': {
        if (open?.status !== 'unknown') return;
        if (op.found) {
          told.add(open.id);
          await stack.db.transaction((em) => facts.apply(em, open.id, success(open.id), { cause: 'resolver', actor: 'resolver', evidence: {} }));
        } else {
          await transitions.apply({ attemptId: open.id, from: 'unknown', to: 'failed', cause: 'resolver', actor: 'resolver' });
        }
        return;
      }
      case 'late_success': {
        // The provider executed one of our creates after all: any attempt, whatever we recorded.
        const target = rows[op.pick % Math.max(rows.length, 1)];
        if (!target) return;
        told.add(target.id);
        await stack.db.transaction((em) => facts.apply(em, target.id, success(target.id), { cause: CAUSE[op.source], actor: op.source, evidence: {} }));
        return;
      }
      case 'person': {
        if (op.act === 'close_items') {
          await stack.db.query(
            `UPDATE review_items SET state = 'closed', decision = 'acknowledge', follow_up = 'recorded_externally', decided_by = 'person', decided_at = now(), closed_at = now()
              WHERE state <> 'closed' AND attempt_id IN (SELECT id FROM attempts WHERE charge_id = $1)`,
            [chargeId],
          );
          return;
        }
        if (open?.status !== 'unknown') return;
        told.add(open.id);
        const moved = await transitions
          .apply({ attemptId: open.id, from: 'unknown', to: 'succeeded', cause: 'reviewer', actor: 'person', set: { providerRef: success(open.id).providerChargeId } })
          .catch((error: unknown) => {
            if (!isUniqueViolation(error)) throw error;
            return false;
          });
        if (!moved) await stack.db.transaction((em) => facts.apply(em, open.id, success(open.id), { cause: 'reviewer', actor: 'person', evidence: {} }));
      }
    }
  }

  it('keeps at most one success-bearing attempt, opens none after a capture, and drops no success the provider reported', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { minLength: 1, maxLength: 14 }), async (sequence) => {
        const chargeId = (await createCharge(stack, { customerId: `cus_${randomUUID().slice(0, 12)}`, amountCents: 4990 })).id;
        const told = new Set<string>();
        for (const op of sequence) {
          const before = await attemptsOf(chargeId);
          await run(chargeId, op, told);
          const after = await attemptsOf(chargeId);
          expect(captured(after).length).toBeLessThanOrEqual(1);
          if (captured(before).length > 0) expect(after.length).toBe(before.length);
        }
        // Every success the provider reported ends as a success-bearing attempt or before a person.
        const rows = await attemptsOf(chargeId);
        const reviewed = new Set((await stack.db.query<Array<{ attempt_id: string }>>(`SELECT attempt_id FROM review_items WHERE attempt_id = ANY($1)`, [[...told]])).map((r) => r.attempt_id));
        for (const id of told) {
          const row = rows.find((r) => r.id === id)!;
          expect(row.status === 'succeeded' || row.late_captured_at !== null || reviewed.has(id), `success for ${id} dropped`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('parks an attempt waiting to be resent when another attempt\'s late capture is recorded, and never reopens the item for the same capture', async () => {
    const chargeId = (await createCharge(stack, { amountCents: 4990 })).id;
    const insert = (id: string, status: string, extra: string) =>
      stack.db.query(
        `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash, http_attempts, resolved_by, next_send_at)
         VALUES ($1, $2, $3, 'stripe', $4, '', repeat('0', 64), 1, $5, ${extra})`,
        [id, chargeId, randomUUID(), status, status === 'failed' ? 'resolver' : null],
      );
    const [a1, a2] = [randomUUID(), randomUUID()];
    await insert(a1, 'failed', 'NULL');
    // A2 hit a connect failure and waits for its backoff: pending, no lease.
    await insert(a2, 'pending', `now() + interval '1 hour'`);
    const facts = stack.app.get(ProviderFactApplier);
    const capture = { outcome: 'succeeded' as const, providerChargeId: `pi_${a1.replace(/-/g, '')}`, amountCents: 4990, currency: 'usd' };
    await stack.db.transaction((em) => facts.apply(em, a1, capture, { cause: 'webhook', actor: 'webhook:stripe', evidence: {} }));
    const rows = await stack.db.query<Array<{ id: string; status: string; late_capture_provider_charge_id: string | null }>>(
      `SELECT id, status, late_capture_provider_charge_id FROM attempts WHERE charge_id = $1 ORDER BY created_at, id`,
      [chargeId],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.late_capture_provider_charge_id]]))).toEqual({ [a1]: ['failed', capture.providerChargeId], [a2]: ['unknown', null] });
    const [parked] = await stack.db.query(`SELECT cause, detail FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'unknown'`, [a2]);
    expect(parked).toMatchObject({ cause: 'webhook', detail: { reason: 'charge_captured_by_another_attempt', capturedBy: a1 } });

    // A person closes the item; the same capture reported again (a redelivery) changes nothing and opens nothing.
    await stack.db.query(`UPDATE review_items SET state = 'closed', decision = 'acknowledge', follow_up = 'keep_capture', decided_by = 'person', decided_at = now(), closed_at = now() WHERE attempt_id = $1`, [a1]);
    const again = await stack.db.transaction((em) => facts.apply(em, a1, capture, { cause: 'webhook', actor: 'webhook:stripe', evidence: {} }));
    expect(again).toEqual({ action: 'none', reason: 'already_in_that_state' });
    expect(await stack.db.query(`SELECT id FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`, [a1])).toEqual([]);
  });

  it('records no capture for another amount: that stays an amount_mismatch for a person', async () => {
    const chargeId = (await createCharge(stack, { amountCents: 4990 })).id;
    const a1 = randomUUID();
    await stack.db.query(
      `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash, http_attempts, resolved_by)
       VALUES ($1, $2, $3, 'stripe', 'failed', '', repeat('0', 64), 1, 'resolver')`,
      [a1, chargeId, randomUUID()],
    );
    const facts = stack.app.get(ProviderFactApplier);
    const decision = await stack.db.transaction((em) =>
      facts.apply(em, a1, { outcome: 'succeeded', providerChargeId: `pi_${randomUUID().slice(0, 8)}`, amountCents: 5990, currency: 'usd' }, { cause: 'webhook', actor: 'webhook:stripe', evidence: {} }),
    );
    expect(decision).toEqual({ action: 'review', reason: 'amount_mismatch' });
    expect((await stack.db.query(`SELECT late_captured_at FROM attempts WHERE id = $1`, [a1]))[0].late_captured_at).toBeNull();
  });

  describe('the database refuses a second capture when the code is bypassed', () => {
    async function lateCapturedCharge(): Promise<{ chargeId: string; a1: string; a2: string }> {
      const chargeId = (await createCharge(stack, { amountCents: 4990 })).id;
      const insert = (id: string) =>
        stack.db.query(
          `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash, http_attempts, resolved_at, resolved_by)
           VALUES ($1, $2, $3, 'stripe', 'failed', '', repeat('0', 64), 1, now(), 'resolver')`,
          [id, chargeId, randomUUID()],
        );
      const [a1, a2] = [randomUUID(), randomUUID()];
      await insert(a1);
      await insert(a2);
      await stack.db.query(`UPDATE attempts SET late_captured_at = now(), late_capture_provider_charge_id = $2 WHERE id = $1`, [a1, `pi_${a1}`]);
      return { chargeId, a1, a2 };
    }

    it('refuses a new attempt of a captured charge, naming the attempt that captured (SQLSTATE CO409)', async () => {
      const { chargeId, a1 } = await lateCapturedCharge();
      await expect(
        stack.db.query(
          `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash) VALUES ($1, $2, $3, 'stripe', 'pending', '', repeat('0', 64))`,
          [randomUUID(), chargeId, randomUUID()],
        ),
      ).rejects.toMatchObject({ driverError: { code: 'CO409', detail: a1 } });
    });

    /** A write with every trigger off (the state table's included): what the indexes and CHECKs hold on their own. */
    const withoutTriggers = (sql: string, params: unknown[]) =>
      stack.db.transaction(async (em) => {
        await em.query(`SET LOCAL session_replication_role = replica`);
        return em.query(sql, params);
      });

    it('refuses a second success-bearing attempt: another failed attempt turned succeeded, or given a late capture', async () => {
      const { a2 } = await lateCapturedCharge();
      const index = { driverError: { code: '23505', constraint: 'uq_attempts_one_capture_per_charge' } };
      // failed → succeeded is no transition of the state table; with that trigger off, the index still refuses it.
      await expect(stack.db.query(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [a2])).rejects.toMatchObject({ driverError: { code: 'CO422' } });
      await expect(withoutTriggers(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [a2])).rejects.toMatchObject(index);
      await expect(stack.db.query(`UPDATE attempts SET late_captured_at = now(), late_capture_provider_charge_id = $2 WHERE id = $1`, [a2, `pi_${a2}`])).rejects.toMatchObject(index);
    });

    it('refuses a late capture on anything but a failed charge attempt', async () => {
      const { a1 } = await lateCapturedCharge();
      await expect(stack.db.query(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [a1])).rejects.toMatchObject({ driverError: { code: 'CO422' } });
      await expect(withoutTriggers(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [a1])).rejects.toMatchObject({
        driverError: { code: '23514', constraint: 'attempts_late_capture_check' },
      });
    });
  });
});
