import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeView } from '@app/charges';
import { RefundsService, type RefundView } from '@app/refunds';
import { ASAAS_PROFILE, STRIPE_PROFILE, type ProviderProfile } from './support/provider-profiles.js';
import { committedCents, postRefund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

const REFUND_SCOPE_SUFFIX = ' POST /charges/:id/refunds';

/** What the provider holds for one charge: its refunds, and the refund creates that reached it. */
interface ProviderRefunds {
  refunds(stack: TestStack, charge: ChargeView): number;
  creates(stack: TestStack): number;
}

const STRIPE_REFUNDS: ProviderRefunds = {
  refunds: (stack, charge) => stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! }).length,
  creates: (stack) => stack.sim.stats().refundsCreated,
};

const ASAAS_REFUNDS: ProviderRefunds = {
  refunds: (stack, charge) => stack.sim.asaasPayments().find((p) => p.id === charge.attempts[0].providerChargeId)?.refunds?.length ?? 0,
  creates: (stack) => stack.sim.stats().asaas.requests.refunds,
};

const rowsOf = async (stack: TestStack, chargeId: string): Promise<unknown> => {
  const [row] = await stack.db.query(
    `SELECT (SELECT to_json(c) FROM charges c WHERE c.id = $1) AS charge,
            (SELECT json_agg(r ORDER BY r.id) FROM refunds r WHERE r.charge_id = $1) AS refunds,
            (SELECT json_agg(a ORDER BY a.id) FROM attempts a WHERE a.charge_id = $1) AS attempts,
            (SELECT count(*)::int FROM attempt_transitions t WHERE t.attempt_id IN (SELECT id FROM attempts WHERE charge_id = $1)) AS transitions,
            (SELECT count(*)::int FROM provider_calls p WHERE p.attempt_id IN (SELECT id FROM attempts WHERE charge_id = $1)) AS calls`,
    [chargeId],
  );
  return row;
};

/** The charge as it stood before the refund: its row, its event counter and its newest event. */
interface ChargeBefore {
  row: Record<string, unknown>;
  eventObject: { version: number; last_status: string | null } | null;
  lastEventSeq: string;
}

const chargeBeforeRefund = async (stack: TestStack, id: string): Promise<ChargeBefore> => {
  const [row] = await stack.db.query(
    `SELECT (SELECT to_json(c) FROM charges c WHERE id = $1) AS row,
            (SELECT json_build_object('version', o.version, 'last_status', o.last_status) FROM event_objects o WHERE o.object_type = 'charge' AND o.object_id = $1) AS event_object,
            (SELECT COALESCE(max(seq), 0)::text FROM events) AS last_event_seq`,
    [id],
  );
  return { row: row.row, eventObject: row.event_object, lastEventSeq: row.last_event_seq };
};

/**
 * What an asynchronous PostgreSQL failover does to the refund's commits, done by hand: the refund, its attempts,
 * every row about them and the key's idempotency record are gone, and the charge is as it was before the refund.
 */
async function loseRefundCommits(stack: TestStack, refundId: string, key: string, before: ChargeBefore): Promise<void> {
  const chargeId = before.row.id as string;
  await stack.sim.webhooksIdle();
  const attempts = `SELECT id FROM attempts WHERE refund_id = $1`;
  await stack.db.transaction(async (em) => {
    for (const table of ['attempt_transitions', 'provider_calls', 'review_items', 'webhook_events', 'reconciliation_divergences']) {
      await em.query(`DELETE FROM ${table} WHERE attempt_id IN (${attempts})`, [refundId]);
    }
    await em.query(`DELETE FROM events WHERE object_id = $1 OR object_id IN (${attempts})`, [refundId]);
    await em.query(`DELETE FROM event_objects WHERE object_id = $1 OR object_id IN (${attempts})`, [refundId]);
    await em.query(`DELETE FROM list_statuses WHERE object_id = $1 OR object_id IN (${attempts})`, [refundId]);
    await em.query(`DELETE FROM attempts WHERE refund_id = $1`, [refundId]);
    await em.query(`DELETE FROM refunds WHERE id = $1`, [refundId]);
    await em.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);
    // The charge's events the refund's commits announced (partially refunded, say) are lost with them.
    await em.query(`DELETE FROM events WHERE object_type = 'charge' AND object_id = $1 AND seq > $2`, [chargeId, before.lastEventSeq]);
    if (before.eventObject) {
      await em.query(`UPDATE event_objects SET version = $2, last_status = $3 WHERE object_type = 'charge' AND object_id = $1`, [chargeId, before.eventObject.version, before.eventObject.last_status]);
    } else {
      await em.query(`DELETE FROM event_objects WHERE object_type = 'charge' AND object_id = $1`, [chargeId]);
    }
    const columns = Object.keys(before.row).filter((c) => c !== 'id');
    await em.query(
      `UPDATE charges c SET (${columns.join(', ')}) = (SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM json_populate_record(NULL::charges, $2::json) r) WHERE c.id = $1`,
      [chargeId, JSON.stringify(before.row)],
    );
  });
}

describe.each<[string, ProviderProfile, ProviderRefunds]>([
  ['stripe', STRIPE_PROFILE, STRIPE_REFUNDS],
  ['asaas', ASAAS_PROFILE, ASAAS_REFUNDS],
])('a refund asked for again under its Idempotency-Key is made once (%s)', (_provider, profile, provider) => {
  let stack: TestStack;
  beforeAll(async () => void (stack = await startTestStack()));
  afterAll(() => stack.close());

  async function refundedOnce(key: string, body: Record<string, unknown>): Promise<{ charge: ChargeView; first: RefundView; chargeBefore: ChargeBefore; createsBefore: number }> {
    const charge = await succeededCharge(stack, profile.chargeBody());
    const chargeBefore = await chargeBeforeRefund(stack, charge.id);
    const createsBefore = provider.creates(stack);
    const res = await postRefund(stack, charge.id, body, key);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const first = res.body as RefundView;
    expect(first.status).toBe('succeeded');
    expect(provider.refunds(stack, charge)).toBe(1);
    return { charge, first, chargeBefore, createsBefore };
  }

  it('a retry that takes over the key a killed process left in flight answers the first refund, not a second', async () => {
    const key = randomUUID();
    const body = { amountCents: 1000, reason: 'returned' };
    const { charge, first, createsBefore } = await refundedOnce(key, body);
    // What a process killed after its refund's provider call leaves: the key in flight, older than any request lives.
    const [, marked] = await stack.db.query(
      `UPDATE idempotency_records SET state = 'in_flight', response_status = NULL, response_body = NULL, created_at = now() - interval '3 minutes'
        WHERE key = $1 AND scope LIKE '%' || $2`,
      [key, REFUND_SCOPE_SUFFIX],
    );
    expect(marked).toBe(1);

    const again = await postRefund(stack, charge.id, body, key);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ id: first.id, status: 'succeeded', attempts: [{ id: first.attempts[0].id, idempotencyKey: first.attempts[0].idempotencyKey }] });
    expect(again.body.attempts).toHaveLength(1);
    // Made by the first request, and said so: the client is not told a new refund was made.
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(provider.refunds(stack, charge)).toBe(1);
    expect(provider.creates(stack) - createsBefore).toBe(1);
    expect(await committedCents(stack, charge.id)).toBe(1000);
  });

  it('a retry after the key was forgotten (its handler threw after the commit) answers the first refund', async () => {
    const key = randomUUID();
    const body = { amountCents: 700 };
    const { charge, first, createsBefore } = await refundedOnce(key, body);
    await stack.db.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);

    const again = await postRefund(stack, charge.id, body, key);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ id: first.id, status: 'succeeded' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(provider.refunds(stack, charge)).toBe(1);
    expect(provider.creates(stack) - createsBefore).toBe(1);
    expect(await committedCents(stack, charge.id)).toBe(700);
  });

  it('a refund lost to a failover with its attempts and its key is re-created as the first, and the provider refunds once', async () => {
    const key = randomUUID();
    const body = { amountCents: 1200, reason: 'damaged' };
    const { charge, first, chargeBefore, createsBefore } = await refundedOnce(key, body);
    await loseRefundCommits(stack, first.id, key, chargeBefore);
    expect(await committedCents(stack, charge.id)).toBe(0);

    const again = await postRefund(stack, charge.id, body, key);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    // The same refund, attempt, key and bytes: the provider's own refund, not a new one.
    expect(again.body).toMatchObject({ id: first.id, status: 'succeeded', attempts: [{ id: first.attempts[0].id, idempotencyKey: first.attempts[0].idempotencyKey, providerRefundId: first.attempts[0].providerRefundId }] });
    expect(provider.refunds(stack, charge)).toBe(1);
    if (profile.provider === 'stripe') {
      expect(stack.sim.stats().refundsByIdempotencyKey[first.attempts[0].idempotencyKey]).toBe(1);
    } else {
      // No key at Asaas: the re-created attempt looked its refund up first, and never sent.
      const [check] = await stack.db.query(`SELECT outcome FROM provider_calls WHERE attempt_id = $1 AND kind = 'first_send_check'`, [first.attempts[0].id]);
      expect(check).toMatchObject({ outcome: 'found' });
    }
    expect(provider.creates(stack) - createsBefore).toBe(1);
    expect(await committedCents(stack, charge.id)).toBe(1200);
  });

  it('the same key with another amount or reason, once its record is gone, is refused and changes nothing', async () => {
    const key = randomUUID();
    const { charge, createsBefore } = await refundedOnce(key, { amountCents: 1000, reason: 'returned' });
    await stack.db.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);
    const before = await rowsOf(stack, charge.id);

    for (const body of [{ amountCents: 1500, reason: 'returned' }, { amountCents: 1000, reason: 'another' }, { amountCents: 1000 }]) {
      const res = await postRefund(stack, charge.id, body, key);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'idempotency_key_reused' });
    }
    expect(await rowsOf(stack, charge.id)).toEqual(before);
    expect(provider.refunds(stack, charge)).toBe(1);
    expect(provider.creates(stack) - createsBefore).toBe(1);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM idempotency_records WHERE key = $1`, [key]);
    expect(n).toBe(0);
  });

  it('two requests with one key at once make one refund, and both answer it', async () => {
    const charge = await succeededCharge(stack, profile.chargeBody());
    const createsBefore = provider.creates(stack);
    const scope = `merchant:${stack.merchantId}${REFUND_SCOPE_SUFFIX}`;
    const key = randomUUID();
    const input = { chargeId: charge.id, merchantId: stack.merchantId, amountCents: 900, reason: null };
    const refunds = stack.app.get(RefundsService);
    const [a, b] = await Promise.all([refunds.create(input, 'test', { scope, key }), refunds.create(input, 'test', { scope, key })]);
    expect(a.view.id).toBe(b.view.id);
    // One made it; the other found it.
    expect([a.existing, b.existing].sort()).toEqual([false, true]);
    expect(provider.refunds(stack, charge)).toBe(1);
    expect(provider.creates(stack) - createsBefore).toBe(1);
    expect(await committedCents(stack, charge.id)).toBe(900);
  });
});
