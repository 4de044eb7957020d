import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconciliationRunsService, addDays, previousDay } from '@app/reconciliation';
import { createCharge, submit } from './support/charges.js';
import { reconcile } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Screenshots for people to look at; git-ignored. */
const SHOTS = join(process.cwd(), 'test-artifacts', 'finance-console');

/**
 * Its own database: "the service's first activity with a provider" is about every row of that provider. A day
 * before the service's first attempt or run with a provider is `before_service` (nothing of ours to reconcile), not
 * `missing`, and no catch-up claims it; from that day on, an empty day is still a day to reconcile. A run reads
 * only a day that has ended in RECONCILIATION_TZ.
 */
describe('reconciliation begins with the service', () => {
  let stack: TestStack;
  let runs: ReconciliationRunsService;
  const yesterday = previousDay(new Date(), 'UTC');
  const today = addDays(yesterday, 1);
  const calendar = async (provider: string, days = 30) => {
    const res = await stack.http.get('/finance/reconciliation/calendar').query({ provider, days: String(days) }).set(stack.auth('admin'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { days: Array<{ day: string; status: string }> }).days;
  };
  const counts = async () =>
    (await stack.db.query<Array<{ runs: number; reviewItems: number; firstAttempts: number }>>(
      `SELECT (SELECT count(*)::int FROM reconciliation_runs) AS runs, (SELECT count(*)::int FROM review_items) AS "reviewItems",
              (SELECT count(*)::int FROM provider_first_attempts) AS "firstAttempts"`,
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

  it('a fresh database with one charge today: every earlier day is before_service and the catch-up runs none of them', async () => {
    const charge = await createCharge(stack);
    expect((await submit(stack, charge.id)).status).toBe('succeeded');
    const [first] = await stack.db.query<Array<{ provider: string; day: string }>>(`SELECT provider, (first_attempt_at AT TIME ZONE 'UTC')::date::text AS day FROM provider_first_attempts`);
    expect(first).toEqual({ provider: 'stripe', day: today });

    const days = await calendar('stripe');
    expect(days).toHaveLength(30);
    expect(days[0].day).toBe(yesterday);
    expect(new Set(days.map((d) => d.status))).toEqual(new Set(['before_service']));
    // A provider the service never used: the same.
    expect(new Set((await calendar('asaas')).map((d) => d.status))).toEqual(new Set(['before_service']));

    expect(await runs.catchUp('stripe', yesterday)).toEqual([]);
    expect(await runs.catchUp('asaas', yesterday)).toEqual([]);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM reconciliation_runs`)).toEqual([{ n: 0 }]);
    const open = await stack.http.get('/reconciliation/open-days').set(stack.auth('admin'));
    const openDays = open.body as Array<{ provider: string; days: unknown[] }>;
    expect(openDays.map((p) => p.provider)).toEqual(expect.arrayContaining(['stripe', 'asaas']));
    for (const provider of openDays) expect(provider.days, provider.provider).toEqual([]);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM review_items WHERE reason = 'reconciliation_gap'`)).toEqual([{ n: 0 }]);
  });

  it('a provider first run 10 days ago: from that day every day is reconciled or missing as before, the days before it never', async () => {
    const tenDaysAgo = addDays(today, -10);
    await reconcile(stack, tenDaysAgo, 'api', 'asaas');
    const shown = await calendar('asaas', 14);
    const statusOf = (day: string) => shown.find((d) => d.day === day)?.status;
    expect(statusOf(tenDaysAgo)).toBe('succeeded');
    for (let n = 1; n <= 9; n += 1) expect(statusOf(addDays(today, -n))).toBe('missing');
    for (let n = 11; n <= 14; n += 1) expect(statusOf(addDays(today, -n))).toBe('before_service');

    // The window (12 days) reaches two days before the first run: those are left alone, the nine after it are run.
    const ran = await runs.catchUp('asaas', yesterday);
    expect(ran).toEqual(Array.from({ length: 9 }, (_, i) => addDays(tenDaysAgo, i + 1)));
    const after = await calendar('asaas', 14);
    expect(after.map((d) => d.status)).toEqual([...Array(10).fill('succeeded'), ...Array(4).fill('before_service')]);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM reconciliation_runs WHERE provider = 'asaas' AND day < $1`, [tenDaysAgo])).toEqual([{ n: 0 }]);
  });

  it('the console shows the days before the service in grey, not as red missing days', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      await page.goto(`${stack.baseUrl}/review#/days?provider=asaas&days=14`);
      await page.fill('#token', stack.auth('admin').Authorization.replace('Bearer ', ''));
      await page.click('button[type=submit]');
      const before = await page.waitForSelector(`[data-day="${addDays(today, -12)}"]`);
      expect(await before.getAttribute('class')).toContain('day-before_service');
      expect(await before.textContent()).toContain('Before service');
      // Evaluated in the page (a string: this file is compiled without the DOM's types).
      const background = (day: string) => page.evaluate<string>(`getComputedStyle(document.querySelector('[data-day="${day}"]')).backgroundColor`);
      // Grey (equal red, green and blue), not the danger colours a missing or failed day wears.
      const [r, g, b] = (await background(addDays(today, -12))).match(/\d+/g)!.map(Number);
      expect(r - b).toBeLessThanOrEqual(4);
      expect(Math.abs(r - g)).toBeLessThanOrEqual(4);
      expect(await page.textContent('#days-summary')).toContain('4 before the service first saw asaas');
      await page.screenshot({ path: join(SHOTS, 'calendar-before-service.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
