import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconciliationRunsService, addDays, previousDay } from '@app/reconciliation';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Its own database, with the production clock: a run reads only a day that has ended in RECONCILIATION_TZ. */
describe('reconciliation begins with the service', () => {
  let stack: TestStack;
  let runs: ReconciliationRunsService;
  const yesterday = previousDay(new Date(), 'UTC');
  const today = addDays(yesterday, 1);
  const counts = async () =>
    (await stack.db.query<Array<{ runs: number; reviewItems: number }>>(
      `SELECT (SELECT count(*)::int FROM reconciliation_runs) AS runs, (SELECT count(*)::int FROM review_items) AS "reviewItems"`,
    ))[0];

  beforeAll(async () => {
    stack = await startTestStack({
      reconciliationRuns: true,
      env: { DATABASE_URL: await scratchDatabase('reconciliation_before_service'), RECONCILIATION_TZ: 'UTC', RECONCILIATION_CRON: 'off', RECONCILIATION_CATCHUP_DAYS: '12' },
    });
    runs = stack.app.get(ReconciliationRunsService);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses a run of a day that has not ended (today, tomorrow, 9999-12-31) with 422 run_day_not_closed, writing nothing', async () => {
    const before = await counts();
    for (const date of [today, addDays(today, 1), '9999-12-31']) {
      const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'stripe', date, source: 'api' });
      expect(res.status, date).toBe(422);
      expect(res.body).toMatchObject({ code: 'run_day_not_closed', details: { field: 'date', lastClosedDay: yesterday } });
      expect(res.body.message).toContain(`${date} has not ended yet in UTC`);
    }
    // The scheduler's entry points hold the same rule.
    await expect(runs.runScheduled('stripe', today)).rejects.toMatchObject({ code: 'run_day_not_closed' });
    await expect(runs.catchUp('stripe', today)).rejects.toMatchObject({ code: 'run_day_not_closed' });
    expect(await counts()).toEqual(before);
  });
});
