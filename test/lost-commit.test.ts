import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptTransitionWriter } from '@app/attempts';
import { ChargeAttemptOpener, type ChargeView } from '@app/charges';
import { UnknownAttemptResolver } from '@app/resolution';
import { createCharge, getCharge, submit } from './support/charges.js';
import { ASAAS_PROFILE, STRIPE_PROFILE, type ProviderProfile } from './support/provider-profiles.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * What an asynchronous PostgreSQL failover does to the last commits, done by hand: the rows those commits wrote are
 * gone, and the rows before them are as the earlier commits left them. Every table that holds a row of the charge's
 * attempts (or, with `chargeToo`, of the charge itself) loses it; the charge row goes back to what its create wrote.
 */
async function loseCommitsAfterCreate(stack: TestStack, charge: ChargeView, createdRow: Record<string, unknown>, chargeToo: boolean): Promise<void> {
  const attempts = `SELECT id FROM attempts WHERE charge_id = $1`;
  await stack.db.transaction(async (em) => {
    for (const table of ['attempt_transitions', 'provider_calls', 'review_items', 'webhook_events', 'reconciliation_divergences']) {
      await em.query(`DELETE FROM ${table} WHERE attempt_id IN (${attempts})`, [charge.id]);
    }
    await em.query(`DELETE FROM events WHERE object_id = $1 OR object_id IN (${attempts})`, [charge.id]);
    await em.query(`DELETE FROM event_objects WHERE object_id = $1 OR object_id IN (${attempts})`, [charge.id]);
    await em.query(`DELETE FROM attempts WHERE charge_id = $1`, [charge.id]);
    if (chargeToo) {
      // The charge's list row is written by its insert, in the same commit.
      await em.query(`DELETE FROM list_statuses WHERE object_id = $1`, [charge.id]);
      await em.query(`DELETE FROM charges WHERE id = $1`, [charge.id]);
      return;
    }
    const columns = Object.keys(createdRow).filter((c) => c !== 'id');
    await em.query(
      `UPDATE charges c SET (${columns.join(', ')}) = (SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM json_populate_record(NULL::charges, $2::json) r) WHERE c.id = $1`,
      [charge.id, JSON.stringify(createdRow)],
    );
  });
}

const chargeRow = async (stack: TestStack, id: string): Promise<Record<string, unknown>> => {
  const [row] = await stack.db.query(`SELECT to_json(c) AS row FROM charges c WHERE id = $1`, [id]);
  return row.row as Record<string, unknown>;
};

describe.each<[string, ProviderProfile, (stack: TestStack, customerId: string) => number]>([
  ['stripe', STRIPE_PROFILE, (stack, customerId) => stack.sim.intents({ customerId }).length],
  ['asaas', ASAAS_PROFILE, (stack, customerId) => stack.sim.asaasPayments({ customer: customerId }).length],
])('a commit lost to a failover never becomes a second charge (%s)', (_provider, profile, providerCharges) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  async function chargedOnce(body: Record<string, unknown>): Promise<{ charge: ChargeView; first: ChargeView; createdRow: Record<string, unknown> }> {
    const charge = await createCharge(stack, body);
    const createdRow = await chargeRow(stack, charge.id);
    const first = await submit(stack, charge.id);
    expect(first.status).toBe('succeeded');
    expect(providerCharges(stack, body.customerId as string)).toBe(1);
    return { charge, first, createdRow };
  }

  it('an attempt row lost after its request reached the provider: the next submit gets the first charge back', async () => {
    const body = profile.chargeBody();
    const { charge, first, createdRow } = await chargedOnce(body);
    await loseCommitsAfterCreate(stack, charge, createdRow, false);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM attempts WHERE charge_id = $1`, [charge.id]);
    expect(n).toBe(0);

    const again = await submit(stack, charge.id);
    expect(again.status).toBe('succeeded');
    expect(again.attempts).toHaveLength(1);
    // The same attempt, key and bytes: the provider's own charge, not a new one.
    expect(again.attempts[0]).toMatchObject({ id: first.attempts[0].id, idempotencyKey: first.attempts[0].idempotencyKey, providerChargeId: first.attempts[0].providerChargeId });
    expect(providerCharges(stack, body.customerId as string)).toBe(1);
    expect(profile.createsFor(stack.sim, again.attempts[0])).toBe(1);
  });

  it('the charge row lost too: the merchant creates the order again and is charged once', async () => {
    const body = profile.chargeBody();
    const { charge, first, createdRow } = await chargedOnce(body);
    await loseCommitsAfterCreate(stack, charge, createdRow, true);

    const recreated = await createCharge(stack, body);
    expect(recreated.id).toBe(charge.id);
    const again = await submit(stack, recreated.id);
    expect(again.status).toBe('succeeded');
    expect(again.attempts[0]).toMatchObject({ id: first.attempts[0].id, providerChargeId: first.attempts[0].providerChargeId });
    expect(providerCharges(stack, body.customerId as string)).toBe(1);
    expect(profile.createsFor(stack.sim, again.attempts[0])).toBe(1);
  });
});

describe('the check before an Asaas first send, when Asaas cannot answer it', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
  });
  afterAll(async () => stack.close());

  it('holds the create back, then checks again and sends once when Asaas answers', async () => {
    const charge = await createCharge(stack, ASAAS_PROFILE.chargeBody());
    await stack.sim.refuseConnections();
    let held: ChargeView;
    try {
      held = await submit(stack, charge.id);
    } finally {
      await stack.sim.acceptConnections();
    }
    expect(held.attempts[0]).toMatchObject({ status: 'pending', lastError: { reason: 'first_send_check_unanswered' } });
    expect(stack.sim.stats().faultsInjected.refuse_connections).toBe(1);
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the worker to send it');
    expect(done.attempts).toHaveLength(1);
    expect(stack.sim.asaasRequests(done.attempts[0].id)).toHaveLength(1);
    expect(stack.sim.asaasPayments({ externalReference: done.attempts[0].id })).toHaveLength(1);
  });
});

describe('a replay after a lost commit that itself ends unknown, an hour after the lost attempt', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true });
  });
  afterAll(async () => stack.close());

  it('is found by the lookup, which lists from the charge creation, not from the re-created attempt', async () => {
    const body = STRIPE_PROFILE.chargeBody();
    const charge = await createCharge(stack, body);
    const createdRow = await chargeRow(stack, charge.id);
    const first = await submit(stack, charge.id);
    expect(first.status).toBe('succeeded');
    await loseCommitsAfterCreate(stack, charge, createdRow, false);
    // Opened again, and the answer to its replay lost this time (a timeout): the attempt is unknown.
    const opened = await stack.app.get(ChargeAttemptOpener).openOrReuse(charge.id, 'test');
    if (opened.kind !== 'open') throw new Error('expected an open attempt');
    expect(opened.attempt.id).toBe(first.attempts[0].id);
    await stack.app.get(AttemptTransitionWriter).apply({ attemptId: opened.attempt.id, from: 'pending', to: 'unknown', cause: 'submit', actor: 'test', sendEnded: true });
    // ...an hour after the lost attempt's request (and its intent) left.
    await stack.db.query(`UPDATE attempts SET created_at = created_at + interval '1 hour', last_send_ended_at = now() - interval '1 minute' WHERE id = $1`, [opened.attempt.id]);
    const decision = await stack.app.get(UnknownAttemptResolver).resolve(opened.attempt.id);
    expect(decision).toMatchObject({ action: 'apply', status: 'succeeded' });
    expect(stack.sim.intents({ customerId: body.customerId as string })).toHaveLength(1);
  });
});

describe('a lost commit replayed after Stripe pruned the key (a charge older than the key lifetime)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  it('is checked by our reference before its first send, and finds the first charge instead of making a second', async () => {
    const body = STRIPE_PROFILE.chargeBody();
    const charge = await createCharge(stack, body);
    const createdRow = await chargeRow(stack, charge.id);
    const first = await submit(stack, charge.id);
    expect(first.status).toBe('succeeded');
    await loseCommitsAfterCreate(stack, charge, createdRow, false);
    // The charge was made 25 hours ago, and Stripe has pruned every key older than 24 hours since.
    await stack.db.query(`UPDATE charges SET created_at = now() - interval '25 hours' WHERE id = $1`, [charge.id]);
    expect(stack.sim.pruneIdempotencyKeys().pruned).toBeGreaterThanOrEqual(1);

    const again = await submit(stack, charge.id);
    expect(again.status).toBe('succeeded');
    expect(again.attempts).toHaveLength(1);
    expect(again.attempts[0]).toMatchObject({ id: first.attempts[0].id, providerChargeId: first.attempts[0].providerChargeId });
    // The key no longer replays: only the check kept the create from leaving.
    expect(stack.sim.intents({ customerId: body.customerId as string })).toHaveLength(1);
    expect(STRIPE_PROFILE.createsFor(stack.sim, again.attempts[0])).toBe(1);
    const [check] = await stack.db.query(`SELECT outcome FROM provider_calls WHERE attempt_id = $1 AND kind = 'first_send_check'`, [again.attempts[0].id]);
    expect(check).toMatchObject({ outcome: 'found' });
  });

  it('a charge younger than the key lifetime is replayed by its key, with no check first', async () => {
    const body = STRIPE_PROFILE.chargeBody();
    const charge = await createCharge(stack, body);
    const createdRow = await chargeRow(stack, charge.id);
    const first = await submit(stack, charge.id);
    await loseCommitsAfterCreate(stack, charge, createdRow, false);
    await stack.db.query(`UPDATE charges SET created_at = now() - interval '2 hours' WHERE id = $1`, [charge.id]);

    const again = await submit(stack, charge.id);
    expect(again.attempts[0]).toMatchObject({ status: 'succeeded', providerChargeId: first.attempts[0].providerChargeId });
    expect(stack.sim.intents({ customerId: body.customerId as string })).toHaveLength(1);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM provider_calls WHERE attempt_id = $1 AND kind = 'first_send_check'`, [again.attempts[0].id]);
    expect(n).toBe(0);
  });
});
