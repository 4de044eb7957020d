import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointSecretCipher, newWebhookSecret } from '@app/events';
import { openReviewItem } from '@app/review/items';
import { createCharge } from './support/charges.js';
import { refund, succeededCharge } from './support/refunds.js';
import { newReviewer, unknownAttemptInReview, type Reviewer } from './support/review.js';
import { insertRefundProposal } from './support/reconciliation.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Screenshots for people to look at; git-ignored (the ones looked at are copied to docs/console/). */
const SHOTS = join(process.cwd(), 'test-artifacts', 'finance-console');

/** A window of days long past, so the runs other test files make (today, yesterday) never fall in it. */
const WINDOW = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04'];

/**
 * Finance's side of the console in a real browser against the real api: looking a charge up, the days
 * reconciliation covered (and missed), exporting what is in view, and the trends drawn from the database.
 */
describe('finance console in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let alice: Reviewer;
  /** Script errors and console errors (a Content-Security-Policy refusal is one) of the shared page. */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startTestStack({ env: { CONSISTENT_LOOKUP_GRACE_MS: '600000', RESOLUTION_BACKOFF_MS: '600000' } });
    alice = await newReviewer(stack, 'alice');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Chromium asks for /favicon.ico by itself; the api has none, and that 404 is no error of the console's.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) pageErrors.push(`${message.text()} ${message.location().url}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function signIn(target: Page, hash: string, token: string): Promise<void> {
    await target.goto('about:blank');
    await target.goto(`${stack.baseUrl}/review${hash}`);
    const form = await target.$('#token');
    if (form) {
      await target.fill('#token', token);
      await target.click('button[type=submit]');
    }
  }

  it('looks a charge up by order id, provider reference, customer or id, with its attempts, evidence, refunds, review items and events', async () => {
    // The merchant's endpoint: its URL's query string (a token of the merchant's) must never reach finance's screen.
    const [endpoint] = await stack.db.query<Array<{ id: string }>>(
      `INSERT INTO webhook_endpoints (merchant_id, url, secret_ciphertext) VALUES ($1, $2, $3) RETURNING id`,
      [stack.merchantId, 'https://merchant.invalid/hooks?token=merchant-own-token', new EndpointSecretCipher(process.env.EVENTS_ENCRYPTION_KEY).encrypt(newWebhookSecret())],
    );
    const orderId = `order-${randomUUID().slice(0, 8)}`;
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const paid = await succeededCharge(stack, { orderId, customerId, amountCents: 8_800 });
    const attempt = paid.attempts[0];
    const refunded = await refund(stack, paid.id, 1_200);
    await stack.db.transaction((em) => openReviewItem(em, attempt.id, 'duplicate_provider_charges', { providerChargeId: 'pi_second_charge' }));

    const lookup = (query: string, as: 'merchant' | 'reviewer' | 'admin' = 'reviewer') => stack.http.get('/finance/charges').query({ query }).set(stack.auth(as));
    for (const query of [orderId, attempt.providerChargeId!, customerId, paid.id]) {
      const res = await lookup(query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items.map((c: { id: string }) => c.id), query).toEqual([paid.id]);
    }
    const [found] = (await lookup(orderId)).body.items;
    expect(found).toMatchObject({ id: paid.id, orderId, customerId, amountCents: 8_800, merchantId: stack.merchantId });
    const chargeAttempt = found.attempts.find((a: { id: string }) => a.id === attempt.id);
    expect(chargeAttempt).toMatchObject({ operation: 'charge', status: 'succeeded', providerChargeId: attempt.providerChargeId });
    expect(chargeAttempt.providerCalls.map((c: { kind: string }) => c.kind)).toContain('create');
    expect(found.refunds).toMatchObject([{ id: refunded.id, amountCents: 1_200 }]);
    expect(found.reviewItems).toMatchObject([{ reason: 'duplicate_provider_charges', state: 'open', attemptId: attempt.id }]);
    // What the merchant was told, in commit order, each with its delivery to the endpoint.
    expect(found.events.map((e: { type: string }) => e.type)).toEqual(['charge.succeeded', 'refund.succeeded', 'charge.partially_refunded']);
    for (const event of found.events) expect(event.deliveries).toMatchObject([{ endpointId: endpoint.id, url: 'https://merchant.invalid/hooks' }]);
    await stack.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'merchant' WHERE id = $1`, [endpoint.id]);

    // A guess that matches nothing finds nothing; bad input names its field; a merchant is not finance.
    expect((await lookup(`order-${randomUUID()}`)).body).toEqual({ items: [], truncated: false });
    const empty = await stack.http.get('/finance/charges').set(stack.auth('reviewer'));
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.message)).toContain('query');
    expect((await lookup(orderId, 'merchant')).status).toBe(403);

    await signIn(page, '#/lookup', alice.headers.Authorization.replace('Bearer ', ''));
    await page.fill('#lookup-query', attempt.providerChargeId!);
    await page.click('#lookup-form button[type=submit]');
    const card = await page.waitForSelector(`[data-charge="${paid.id}"]`);
    const text = await card.textContent();
    expect(text).toContain(orderId);
    expect(text).toContain(attempt.providerChargeId!);
    expect(text).toContain(refunded.id);
    expect(text).toContain('duplicate_provider_charges');
    expect(await page.$$(`[data-charge="${paid.id}"] [data-call]`)).not.toHaveLength(0);
    expect(await page.$$(`[data-charge="${paid.id}"] [data-event]`)).toHaveLength(3);
    expect(text).toContain('charge.partially_refunded');
    expect(text).toContain('https://merchant.invalid/hooks');
    expect(text).not.toContain('merchant-own-token');
    await page.screenshot({ path: join(SHOTS, 'lookup.png'), fullPage: true });
  });

  it('shows each day of a provider with its status, counts and duration; a click shows that run\'s divergences; the export downloads them', async () => {
    const [reconciled, failed, missing, running] = WINDOW;
    const insertRun = async (day: string, status: string, fields: { lines?: number; matched?: number; settled?: number; counts?: object; seconds?: number; error?: string }) => {
      const [{ id }] = await stack.db.query(
        `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, executions, lines_read, matched, settled, divergence_counts, error, started_at, finished_at)
         VALUES (gen_random_uuid(), 'stripe', $1, 'manual', 'api', $2, 'test', 1, $3, $4, $5, $6, $7, now() - interval '1 hour',
                 CASE WHEN $2 = 'running' THEN NULL ELSE now() - interval '1 hour' + make_interval(secs => $8) END) RETURNING id`,
        [day, status, fields.lines ?? 0, fields.matched ?? 0, fields.settled ?? 0, JSON.stringify(fields.counts ?? {}), fields.error ?? null, fields.seconds ?? 0],
      );
      return id as string;
    };
    const runId = await insertRun(reconciled, 'succeeded', { lines: 120, matched: 117, settled: 1, counts: { provider_only: 1, amount_mismatch: 1 }, seconds: 42 });
    await insertRun(failed, 'failed', { lines: 30, seconds: 5, error: 'statement download failed: 503' });
    await insertRun(running, 'running', { lines: 10 });
    const divergence = async (kind: string, subject: string, amountCents: number, note: string | null) => {
      const [{ id }] = await stack.db.query(
        `INSERT INTO reconciliation_divergences (id, run_id, kind, provider, day, subject, provider_charge_id, amount_cents, currency, detail, status, note)
         VALUES (gen_random_uuid(), $1, $2, 'stripe', $3, $4, $4, $5, 'usd', '{}', $6, $7) RETURNING id`,
        [runId, kind, reconciled, subject, amountCents, note ? 'acknowledged' : 'open', note],
      );
      await stack.db.query(`INSERT INTO reconciliation_run_divergences (run_id, divergence_id) VALUES ($1, $2)`, [runId, id]);
      return id as string;
    };
    const onlyAtProvider = await divergence('provider_only', `pi_only_${randomUUID().slice(0, 8)}`, 3_300, null);
    const mismatch = await divergence('amount_mismatch', `pi_amount_${randomUUID().slice(0, 8)}`, 10_050, 'refunded by hand, "FIN-12"\nsee ticket');

    const calendar = (query: Record<string, string>, as: 'reviewer' | 'admin' = 'admin') => stack.http.get('/finance/reconciliation/calendar').query(query).set(stack.auth(as));
    const res = await calendar({ provider: 'stripe', to: running, days: '4' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.days.map((d: { day: string; status: string }) => [d.day, d.status])).toEqual([
      [running, 'running'],
      [missing, 'missing'],
      [failed, 'failed'],
      [reconciled, 'succeeded'],
    ]);
    expect(res.body.days[3]).toMatchObject({ runId, linesRead: 120, matched: 117, settled: 1, divergences: { provider_only: 1, amount_mismatch: 1 }, durationSeconds: 42 });
    expect(res.body.days[2]).toMatchObject({ error: 'statement download failed: 503', linesRead: 30 });
    expect((await calendar({ provider: 'stripe', days: '400' })).status).toBe(400);
    const impossible = await calendar({ provider: 'stripe', to: '2025-02-30' });
    expect(impossible.status).toBe(400);
    expect(JSON.stringify(impossible.body)).toContain('to must be a calendar date');
    expect((await calendar({ provider: 'nope' })).body.code).toBe('unknown_provider');
    expect((await calendar({ provider: 'stripe' }, 'reviewer')).status).toBe(403);

    const admin = await browser.newPage({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    try {
      await signIn(admin, `#/days?provider=stripe&to=${running}&days=4`, stack.auth('admin').Authorization.replace('Bearer ', ''));
      const missingCell = await admin.waitForSelector(`[data-day="${missing}"]`);
      expect(await missingCell.getAttribute('class')).toContain('day-missing');
      expect(await admin.getAttribute(`[data-day="${failed}"]`, 'class')).toContain('day-failed');
      expect(await admin.textContent(`[data-day="${reconciled}"]`)).toContain('120');
      await admin.click(`[data-day="${reconciled}"]`);
      await admin.waitForSelector(`tr[data-divergence="${mismatch}"]`);
      expect(await admin.textContent(`tr[data-divergence="${onlyAtProvider}"]`)).toContain('Money at the provider with no charge of ours');
      await admin.screenshot({ path: join(SHOTS, 'calendar.png'), fullPage: true });

      const [download] = await Promise.all([admin.waitForEvent('download'), admin.click('#export-run-divergences')]);
      expect(download.suggestedFilename()).toBe(`divergences-stripe-${reconciled}.csv`);
      const csv = readFileSync((await download.path()), 'utf8');
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe('id,day,provider,kind,status,provider_charge_id,charge_id,payout_id,attempt_id,amount_cents,currency,note,acknowledged_by,acknowledged_at');
      expect(csv).toContain(`${mismatch},${reconciled},stripe,amount_mismatch,acknowledged,`);
      expect(csv).toContain(',10050,usd,"refunded by hand, ""FIN-12""\nsee ticket",');
      expect(csv).toContain(`${onlyAtProvider},${reconciled},stripe,provider_only,open,`);

      const [proposals] = await Promise.all([admin.waitForEvent('download'), admin.click('#export-proposals')]);
      expect(proposals.suggestedFilename()).toBe('refund-proposals-all.csv');
      expect(readFileSync((await proposals.path()), 'utf8')).toMatch(/^id,created_at,provider,provider_charge_id,/);
    } finally {
      await admin.close();
    }
  });

  it('serves the exports as CSV attachments, money in integer minor units', async () => {
    const [planted] = stack.sim.plantCharges([{ amount: 4_321 }]);
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 4_321 });
    const res = await stack.http.get('/finance/reconciliation/refund-proposals.csv').query({ state: 'proposed' }).set(stack.auth('admin'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="refund-proposals-proposed.csv"');
    expect(res.text.split('\r\n')[0]).toBe('id,created_at,provider,provider_charge_id,charge_id,amount_cents,currency,reason,state,approved_by,decided_by,decided_at,decision_note,refund_id');
    expect(res.text).toContain(`${proposalId},`);
    expect(res.text).toContain(`,stripe,${planted.paymentIntentId},,4321,usd,provider_only,proposed,`);
    const open = await stack.http.get('/finance/reconciliation/divergences.csv').query({ status: 'open' }).set(stack.auth('admin'));
    expect(open.headers['content-disposition']).toBe('attachment; filename="divergences-open.csv"');
    expect(open.text).toContain(planted.paymentIntentId);
    expect((await stack.http.get('/finance/reconciliation/divergences.csv').query({ status: 'maybe' }).set(stack.auth('admin'))).status).toBe(400);
    expect((await stack.http.get('/finance/reconciliation/divergences.csv').set(stack.auth('reviewer'))).status).toBe(403);
  });

  it('draws the trends from the endpoints\' data: unknown attempts by age, time to certainty, the review queue, divergences per night', async () => {
    // An unknown attempt still open, and one a reviewer settled: a point of time to certainty caused by a reviewer.
    await unknownAttemptInReview(stack, '500_before_create');
    const settled = await unknownAttemptInReview(stack, 'hang_after_create');
    await stack.http.post(`/review/items/${settled.itemId}/claim`).set(alice.headers).expect(200);
    await stack.http.post(`/review/items/${settled.itemId}/decision`).set(alice.headers).send({ action: 'succeeded', providerChargeId: settled.intentId, reason: 'The intent succeeded.' }).expect(200);
    await createCharge(stack);

    // What the page itself received: each chart is compared with the very answer it drew.
    const answers = new Map<string, Promise<unknown>>();
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/finance/trends/')) answers.set(path.slice('/finance/trends/'.length), response.json());
    });
    await signIn(page, '#/trends', alice.headers.Authorization.replace('Bearer ', ''));
    for (const chart of ['unknown-attempts', 'time-to-certainty', 'review-queue', 'divergences']) await page.waitForSelector(`#chart-${chart} .uplot`);
    await page.screenshot({ path: join(SHOTS, 'trends.png'), fullPage: true });
    const served = new Map(await Promise.all([...answers].map(async ([name, body]) => [name, await body] as const)));
    expect([...served.keys()].sort()).toEqual(['divergences', 'review-queue', 'time-to-certainty', 'unknown-attempts']);
    const drawn = (chart: string) => page.$eval(`#chart-${chart}`, (el) => (el as unknown as { uplot: { data: unknown[] } }).uplot.data);

    const unknown = served.get('unknown-attempts') as { buckets: Array<{ label: string; count: number }> };
    expect(unknown.buckets.reduce((sum, b) => sum + b.count, 0)).toBeGreaterThanOrEqual(1);
    expect(await drawn('unknown-attempts')).toEqual([unknown.buckets.map((_, i) => i), unknown.buckets.map((b) => b.count)]);

    const certainty = served.get('time-to-certainty') as { hours: number[]; causes: Record<string, { p50: Array<number | null>; p90: Array<number | null>; p99: Array<number | null> }> };
    expect(Object.keys(certainty.causes)).toContain('reviewer');
    expect(await drawn('time-to-certainty')).toEqual([certainty.hours, ...Object.values(certainty.causes).flatMap((c) => [c.p50, c.p90, c.p99])]);

    const queue = served.get('review-queue') as { hours: number[]; open: number[]; oldestAgeMinutes: Array<number | null> };
    expect(queue.open.at(-1)).toBeGreaterThanOrEqual(1);
    expect(await drawn('review-queue')).toEqual([queue.hours, queue.open, queue.oldestAgeMinutes]);

    const nights = served.get('divergences') as { days: number[]; divergences: number[] };
    expect(nights.days).toHaveLength(30);
    expect(await drawn('divergences')).toEqual([nights.days, nights.divergences]);

    // Bounded: a window past the limit is refused with the field named.
    const tooLong = await stack.http.get('/finance/trends/time-to-certainty').query({ hours: '10000' }).set(stack.auth('reviewer'));
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body.message)).toContain('hours');
    expect(pageErrors).toEqual([]);
  });

  it('serves the chart library from the api under the console\'s policy', async () => {
    const script = await stack.http.get('/review/console/vendor/uPlot.iife.min.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await stack.http.get('/review/console/vendor/uPlot.min.css')).headers['content-type']).toContain('text/css');
    expect((await stack.http.get('/review/console/vendor/uPlot.cjs.js')).status).toBe(404);
  });
});
