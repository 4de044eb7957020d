import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconciliationRunsService, addDays, previousDay } from '@app/reconciliation';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { reconcile } from './support/reconciliation.js';
import { createCharge, submit } from './support/charges.js';

const unix = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * Its own database and simulator: a scheduled tick reconciles whole days, so it must see only this file's. A night
 * passing is the runs' clock moving back a day (the backoff counts from when a run finished, by the database clock).
 */
describe('no day goes unreconciled', () => {
  let stack: TestStack;
  let runs: ReconciliationRunsService;
  const yesterday = previousDay(new Date(), 'UTC');
  const [dA, dB, dC] = [addDays(yesterday, -2), addDays(yesterday, -1), yesterday];
  const old = addDays(dA, -1);

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_nights');
    stack = await startTestStack({
      reconciliationRuns: true,
      env: {
        DATABASE_URL: databaseUrl,
        RECONCILIATION_TZ: 'UTC',
        RECONCILIATION_REPORT_POLL_MS: '20',
        RECONCILIATION_CATCHUP_DAYS: '3',
        RECONCILIATION_SOURCE: 'report',
        RECONCILIATION_RETRY_BACKOFF_MS: '3600000,21600000',
      },
    });
    runs = stack.app.get(ReconciliationRunsService);
  });
  afterAll(async () => {
    await stack?.close();
  });

  const nightPasses = () => stack.db.query(`UPDATE reconciliation_runs SET started_at = started_at - interval '1 day', finished_at = finished_at - interval '1 day'`);
  const statuses = (day: string) =>
    stack.db.query<Array<{ status: string }>>(`SELECT status FROM reconciliation_runs WHERE provider = 'stripe' AND day = $1 ORDER BY started_at, id`, [day]).then((rows) => rows.map((r) => r.status));
  const gapItems = () =>
    stack.db.query<Array<{ id: string; provider: string; day: string; state: string; attempt_id: string | null }>>(
      `SELECT id, gap_provider AS provider, gap_day::text AS day, state, attempt_id FROM review_items WHERE reason = 'reconciliation_gap' ORDER BY gap_day`,
    );
  const gauge = async (name: string) => {
    const metrics = await stack.metrics();
    return Number(new RegExp(`charge_once_reconciliation_${name}\\{provider="stripe"\\} (\\S+)`).exec(metrics)?.[1]);
  };
  const unreconciledDays = () => gauge('unreconciled_days');
  /** Per day reconciled: every day of the window before it has a succeeded run. */
  const reconciledThrough = () => gauge('last_success_timestamp_seconds');

  it('two failed nights and a report not yet available: the third night reconciles all three days in order; the day past the window is one review item', async () => {
    const planted = stack.sim.plantCharges([dA, dB, dC].map((day) => ({ amount: 1000, created: unix(day) + 12 * 3600 })));

    // Long ago, the night of `old` failed too (the statement file answered 500).
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 1 }] });
    expect(await runs.runScheduled('stripe', old)).not.toBeNull();
    await nightPasses();
    // Night one: dA's statement fails.
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 1 }] });
    expect(await runs.runScheduled('stripe', dA)).not.toBeNull();
    await nightPasses();
    // Night two: the failed days are retried (a day has passed) and fail again, with dB.
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 3 }] });
    expect(await runs.catchUp('stripe', dB)).toEqual([old, dA, dB]);
    expect(stack.sim.stats().faultsInjected.query_500).toBe(5);
    expect(await statuses(dA)).toEqual(['failed', 'failed']);
    // Backoff: another tick the same night leaves the failed days alone.
    stack.sim.setFaults({});
    expect(await runs.catchUp('stripe', dB)).toEqual([]);
    expect(await unreconciledDays()).toBe(3);
    await nightPasses();

    // Night three: Stripe's report does not cover dA yet. Every day waits, nothing fails, and `old` has left the window.
    stack.sim.configure({ reportDataAvailableEnd: unix(dA) });
    const reportRunsBefore = stack.sim.stats().requests.reportRuns;
    expect(await runs.catchUp('stripe', dC)).toEqual([dA, dB, dC]);
    for (const day of [dA, dB, dC]) expect((await statuses(day)).at(-1)).toBe('waiting');
    expect(stack.sim.stats().requests.reportRuns).toBe(reportRunsBefore);
    const [gap] = await gapItems();
    expect(await gapItems()).toEqual([{ id: gap.id, provider: 'stripe', day: old, state: 'open', attempt_id: null }]);
    expect(await reconciledThrough()).toBe(unix(dA));
    // A waiting day is not a failure: the next tick asks again, at once.
    expect(await runs.catchUp('stripe', dC)).toEqual([dA, dB, dC]);

    // The report covers the days now: the retry tick between nights (days already tried only) reconciles all
    // three, oldest first, without waiting for the next night.
    stack.sim.configure({ reportDataAvailableEnd: null });
    expect(await runs.catchUp('stripe', dC, { triedOnly: true })).toEqual([dA, dB, dC]);
    const succeeded = await stack.db.query<Array<{ day: string }>>(
      `SELECT day::text AS day FROM reconciliation_runs WHERE provider = 'stripe' AND status = 'succeeded' ORDER BY started_at, id`,
    );
    expect(succeeded.map((r) => r.day)).toEqual([dA, dB, dC]);
    const divergences = await stack.db.query<Array<{ day: string; provider_charge_id: string }>>(
      `SELECT day::text AS day, provider_charge_id FROM reconciliation_divergences WHERE kind = 'provider_only' ORDER BY day`,
    );
    expect(divergences).toEqual([dA, dB, dC].map((day, i) => ({ day, provider_charge_id: planted[i].paymentIntentId })));
    expect(await unreconciledDays()).toBe(0);
    expect(await reconciledThrough()).toBe(unix(addDays(dC, 1)));

    // Later ticks open no second item for `old`, and the database refuses one however it is written.
    expect(await runs.catchUp('stripe', dC)).toEqual([]);
    expect(await gapItems()).toHaveLength(1);
    await expect(
      stack.db.query(`INSERT INTO review_items (id, reason, evidence, state, gap_provider, gap_day) VALUES (gen_random_uuid(), 'reconciliation_gap', '{}', 'open', 'stripe', $1)`, [old]),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
  });

  it('a reviewer sees, claims and closes the gap item; a manual run of a gap day that succeeds closes its item', async () => {
    const [gap] = await gapItems();
    const list = await stack.http.get('/review/items?reason=reconciliation_gap').set(stack.auth('reviewer'));
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ id: gap.id, reason: 'reconciliation_gap', provider: 'stripe', day: old, attemptId: null, amountCents: null })]);
    const shown = await stack.http.get(`/review/items/${gap.id}`).set(stack.auth('reviewer'));
    expect(shown.status).toBe(200);
    expect(shown.body.evidence.runs.map((r: { status: string }) => r.status)).toEqual(['failed', 'failed']);

    expect((await stack.http.post(`/review/items/${gap.id}/claim`).set(stack.auth('reviewer'))).status).toBe(200);
    // Attempt decisions do not fit a day: refused, nothing changes.
    const wrong = await stack.http.post(`/review/items/${gap.id}/decision`).set(stack.auth('reviewer')).send({ action: 'failed', reason: 'no idea' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('review_action_not_allowed');
    // The day holds a charge of ours at Stripe: "nothing to reconcile" is refused, whoever says it.
    const ours = await createCharge(stack);
    const attemptId = (await submit(stack, ours.id)).attempts[0].id;
    await stack.db.query(`UPDATE attempts SET created_at = $2::date + interval '12 hours' WHERE id = $1`, [attemptId, old]);
    const nothing = await stack.http.post(`/review/items/${gap.id}/decision`).set(stack.auth('reviewer')).send({ action: 'acknowledge', followUp: 'no_action', reason: 'nothing happened that day' });
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toContain('1 attempts of ours at stripe');
    const done = await stack.http
      .post(`/review/items/${gap.id}/decision`)
      .set(stack.auth('reviewer'))
      .send({ action: 'acknowledge', followUp: 'recorded_externally', reason: 'reconciled by hand against the dashboard export' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 'closed', decision: { action: 'acknowledge', followUp: 'recorded_externally' } });

    // Another day past the window, never reconciled: its item closes when a person's run of that day succeeds.
    const older = addDays(old, -1);
    await stack.db.query(`INSERT INTO review_items (id, reason, evidence, state, gap_provider, gap_day) VALUES (gen_random_uuid(), 'reconciliation_gap', '{}', 'open', 'stripe', $1)`, [older]);
    await reconcile(stack, older, 'report');
    const closed = await gapItems();
    expect(closed.map((g) => [g.day, g.state])).toEqual([[older, 'closed'], [old, 'closed']]);
    const [{ id: olderId }] = closed;
    const audit = await stack.http.get(`/review/items/${olderId}/audit`).set(stack.auth('reviewer'));
    expect(audit.body.at(-1)).toMatchObject({ actor: 'reconciliation', action: 'decide', decision: 'acknowledge', stateAfter: 'closed' });
  });

  it('a provider with no history at all (a fresh install) has no gap item and nothing to catch up: its days are before the service', async () => {
    // Asaas has neither runs nor attempts in this file's database: there is nothing of ours on any day to reconcile.
    expect(await runs.catchUp('asaas', yesterday, { triedOnly: true })).toEqual([]);
    expect(await runs.catchUp('asaas', yesterday)).toEqual([]);
    const [{ n }] = await stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM review_items WHERE gap_provider = 'asaas'`);
    expect(n).toBe(0);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM reconciliation_runs WHERE provider = 'asaas'`)).toEqual([{ n: 0 }]);
    const calendar = await stack.http.get('/finance/reconciliation/calendar').query({ provider: 'asaas', days: '3' }).set(stack.auth('admin'));
    expect(calendar.body.days.map((d: { status: string }) => d.status)).toEqual(['before_service', 'before_service', 'before_service']);
  });
});
