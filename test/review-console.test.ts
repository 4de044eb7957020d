import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity, ReviewItemEntity } from '@app/database';
import { openReviewItem } from '@app/review/items';
import { createCharge, submit } from './support/charges.js';
import { intentAtProvider, newReviewer, unknownAttemptInReview, type ItemUnderReview, type Reviewer } from './support/review.js';
import { addDays, previousDay } from '@app/reconciliation';
import { insertRefundProposal } from './support/reconciliation.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Screenshots for people to look at; git-ignored. */
const SHOTS = join(process.cwd(), 'test-artifacts', 'review-console');

/**
 * The console in a real browser (Debian's chromium, driven by playwright-core) against the real api: a
 * finance person signs in, works the queue, claims an item, decides it, and sees it leave the queue.
 */
describe('review console in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let alice: Reviewer;
  let target: ItemUnderReview;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startTestStack({ env: { CONSISTENT_LOOKUP_GRACE_MS: '600000', RESOLUTION_BACKOFF_MS: '600000' } });
    alice = await newReviewer(stack, 'alice');
    const bob = await newReviewer(stack, 'bob');
    // A queue that looks like a working day: the item we decide, a large one, a late truth, and one a colleague holds.
    target = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 12_990 });
    await unknownAttemptInReview(stack, '500_before_create', { amountCents: 249_900 });
    const paid = await submit(stack, (await createCharge(stack, { amountCents: 4_990 })).id);
    await stack.db.transaction((em) => openReviewItem(em, paid.attempts[0].id, 'duplicate_provider_charges', { providerChargeId: 'pi_second_charge' }));
    const held = await unknownAttemptInReview(stack, '500_before_create', { amountCents: 7_500 });
    await stack.http.post(`/review/items/${held.itemId}/claim`).set(bob.headers).expect(200);

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // A 13-inch laptop.
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('signs in, opens an item from the queue, claims it, decides it, and sees it leave the queue', async () => {
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(`${stack.baseUrl}/review`);
    await page.fill('#token', alice.headers.Authorization.replace('Bearer ', ''));
    await page.click('button[type=submit]');
    await page.waitForSelector(`tr[data-item="${target.itemId}"]`);
    await expect(page.textContent('#who-name')).resolves.toContain(alice.name);
    await page.screenshot({ path: join(SHOTS, 'queue.png') });

    await page.click(`tr[data-item="${target.itemId}"]`);
    await page.waitForSelector('#claim');
    expect(await page.textContent('h1')).toContain('Provider never gave a definite answer');
    expect(await page.textContent('.timeline')).toContain('Charge request sent');
    await page.click('#claim');
    await page.waitForSelector('#decision-form');
    await page.check('input[name=action][value=succeeded]');
    await page.fill('input[name=providerChargeId]', target.intentId!);
    await page.fill('textarea[name=reason]', 'Stripe shows the payment intent for this attempt succeeded for the full amount.');
    await page.screenshot({ path: join(SHOTS, 'item.png'), fullPage: true });

    await page.click('#decision-form button[type=submit]');
    await page.waitForURL((url) => url.hash === '#/');
    await page.waitForSelector('#queue tbody tr');
    expect(await page.$(`tr[data-item="${target.itemId}"]`)).toBeNull();
    await page.screenshot({ path: join(SHOTS, 'queue-after.png') });

    const attempt = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: target.attemptId });
    expect(attempt).toMatchObject({ status: 'succeeded', providerRef: target.intentId, resolvedBy: 'reviewer' });
    expect(await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ id: target.itemId })).toMatchObject({ state: 'closed', decidedBy: alice.name });
    expect(consoleErrors).toEqual([]);
  });

  it('offers only acknowledge, with a follow-up, for a late truth about a settled attempt', async () => {
    const paid = await submit(stack, (await createCharge(stack, { amountCents: 31_500 })).id);
    await stack.db.transaction((em) => openReviewItem(em, paid.attempts[0].id, 'provider_success_after_failure', { type: 'payment_intent.succeeded' }));
    const item = await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ attemptId: paid.attempts[0].id });
    await page.goto('about:blank');
    await page.goto(`${stack.baseUrl}/review#/items/${item.id}`);
    await page.click('#claim');
    await page.waitForSelector('#decision-form');
    expect(await page.$$eval('input[name=action]', (inputs) => inputs.map((i) => i.getAttribute('value')))).toEqual(['acknowledge']);
    await page.selectOption('select[name=followUp]', 'refund_needed');
    // A second charge at the provider under this charge's reference: the money to give back.
    const second = await intentAtProvider(stack, { customer: paid.customerId, attemptId: paid.attempts[0].id, amount: paid.amountCents, currency: paid.currency });
    await page.fill('input[name=providerChargeId]', second);
    await page.fill('textarea[name=reason]', 'Customer was charged after we declined; refund it.');
    await page.screenshot({ path: join(SHOTS, 'acknowledge.png'), fullPage: true });
    await page.click('#decision-form button[type=submit]');
    await page.waitForURL((url) => url.hash === '#/');
    expect(await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ id: item.id })).toMatchObject({ state: 'closed', followUp: 'refund_needed' });
  });

  it('shows the four-eyes state: the first reviewer waits, a second reviewer confirms in their own session', async () => {
    const big = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 480_000 });
    await stack.http.post(`/review/items/${big.itemId}/claim`).set(alice.headers).expect(200);
    await stack.http.post(`/review/items/${big.itemId}/decision`).set(alice.headers).send({ action: 'succeeded', providerChargeId: big.intentId, reason: 'The intent succeeded for the full amount.' }).expect(200);
    await page.goto('about:blank');
    await page.goto(`${stack.baseUrl}/review#/items/${big.itemId}`);
    await page.waitForSelector('#decision');
    expect(await page.textContent('#decision')).toContain('Someone other than you must confirm or reject it.');
    expect(await page.$('#confirm')).toBeNull();

    const carol = await newReviewer(stack, 'carol');
    const second = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await second.goto(`${stack.baseUrl}/review`);
    await second.fill('#token', carol.headers.Authorization.replace('Bearer ', ''));
    await second.click('button[type=submit]');
    await second.waitForSelector('#queue');
    await second.goto(`${stack.baseUrl}/review#/items/${big.itemId}`);
    await second.waitForSelector('#confirm');
    await second.fill('#decision textarea[name=reason]', 'Checked the provider dashboard myself.');
    await second.screenshot({ path: join(SHOTS, 'second-review.png'), fullPage: true });
    await second.click('#confirm');
    await second.waitForURL((url) => url.hash === '#/');
    await second.close();
    expect(await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ id: big.itemId })).toMatchObject({ state: 'closed', decidedBy: alice.name, confirmedBy: carol.name });
    expect((await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: big.attemptId })).status).toBe('succeeded');
  });

  it('shows a refusal in words, and changes nothing', async () => {
    const other = await unknownAttemptInReview(stack, 'hang_after_create');
    await page.goto('about:blank');
    await page.goto(`${stack.baseUrl}/review#/items/${other.itemId}`);
    await page.click('#claim');
    await page.waitForSelector('#decision-form');
    await page.check('input[name=action][value=failed]');
    await page.fill('textarea[name=reason]', 'Nothing in the dashboard.');
    await page.click('#decision-form button[type=submit]');
    const error = await page.waitForSelector('#decision .error');
    expect(await error.textContent()).toMatch(/Refused\. The provider may still be processing the last request .* Try again after .*Nothing was changed\./);
    await page.screenshot({ path: join(SHOTS, 'refused.png'), fullPage: true });
    expect((await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: other.attemptId })).status).toBe('unknown');
  });

  it('serves the page with a policy that allows no inline or foreign script', async () => {
    const res = await stack.http.get('/review');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await stack.http.get('/review/console/console.js');
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await stack.http.get('/review/console/queue.js')).headers['content-type']).toContain('javascript');
    expect((await stack.http.get('/review/console/console.css')).headers['content-type']).toContain('text/css');
    expect((await stack.http.get('/review/console/index.html')).status).toBe(404);
    expect((await stack.http.get('/review/console/..%2Fapi.module.ts')).status).toBe(404);
  });

  it('shows an admin the open divergences and proposed refunds; approving one sends its refund once', async () => {
    // A provider-only charge and what reconciliation records for it (inserted: this file shares its database).
    const [planted] = stack.sim.plantCharges([{ amount: 3_300 }]);
    const { proposalId, divergenceId } = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 3_300 });

    // A reviewer is told in words that this page is not theirs.
    await page.goto('about:blank');
    await page.goto(`${stack.baseUrl}/review#/reconciliation`);
    expect(await (await page.waitForSelector('#reconciliation-status .error')).textContent()).toContain('admin tokens');

    const admin = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await admin.goto(`${stack.baseUrl}/review#/reconciliation`);
      await admin.fill('#token', stack.auth('admin').Authorization.replace('Bearer ', ''));
      await admin.click('button[type=submit]');
      await admin.waitForSelector(`tr[data-proposal="${proposalId}"]`);
      expect(await admin.textContent(`tr[data-divergence="${divergenceId}"]`)).toContain('Money at the provider with no charge of ours');
      expect(await admin.textContent(`tr[data-proposal="${proposalId}"]`)).toContain(planted.paymentIntentId);
      await admin.screenshot({ path: join(SHOTS, 'reconciliation.png'), fullPage: true });

      // Rejecting without a reason is stopped in the page; nothing is sent.
      await admin.click(`tr[data-proposal="${proposalId}"] button[data-action=reject]`);
      await admin.waitForSelector('#toast:not([hidden])');
      expect(await stack.db.query(`SELECT state FROM refund_proposals WHERE id = $1`, [proposalId])).toEqual([{ state: 'proposed' }]);

      await admin.fill(`tr[data-proposal="${proposalId}"] input[name=note]`, 'not a customer of ours');
      await admin.click(`tr[data-proposal="${proposalId}"] button[data-action=approve]`);
      await admin.waitForSelector(`tr[data-proposal="${proposalId}"]`, { state: 'detached' });
      const [proposal] = await stack.db.query(`SELECT state, decided_by, decision_note, refund_id FROM refund_proposals WHERE id = $1`, [proposalId]);
      expect(proposal).toMatchObject({ state: 'executed', decision_note: 'not a customer of ours', refund_id: expect.any(String) });
      expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId }).map((r) => [r.amount, r.status])).toEqual([[3_300, 'succeeded']]);
    } finally {
      await admin.close();
    }
  });

  it('shows an admin the days not yet reconciled, and a reviewer closes a day that left the window from its item', async () => {
    // Inserted: this file shares its database. Yesterday's night failed; a day long ago was never reconciled.
    const yesterday = previousDay(new Date(), stack.config.RECONCILIATION_TZ);
    const gapDay = addDays('2020-01-01', Math.floor(Math.random() * 2000));
    for (const day of [yesterday, gapDay]) {
      await stack.db.query(
        `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, executions, error, finished_at)
         VALUES (gen_random_uuid(), 'stripe', $1, 'scheduled', 'report', 'failed', 'scheduler', 1, 'report file answered 500', now())`,
        [day],
      );
    }
    const [{ id: gapId }] = await stack.db.query<Array<{ id: string }>>(
      `INSERT INTO review_items (id, reason, evidence, state, gap_provider, gap_day) VALUES (gen_random_uuid(), 'reconciliation_gap', '{}', 'open', 'stripe', $1) RETURNING id`,
      [gapDay],
    );

    const admin = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await admin.goto(`${stack.baseUrl}/review#/reconciliation`);
      await admin.fill('#token', stack.auth('admin').Authorization.replace('Bearer ', ''));
      await admin.click('button[type=submit]');
      const row = await admin.waitForSelector(`#open-days tr[data-provider="stripe"][data-day="${yesterday}"]`);
      expect(await row.textContent()).toContain('Failed: retried after a backoff');
      expect(await row.textContent()).toContain('report file answered 500');
      await admin.screenshot({ path: join(SHOTS, 'open-days.png'), fullPage: true });
    } finally {
      await admin.close();
    }

    await page.goto('about:blank');
    await page.goto(`${stack.baseUrl}/review#/?reason=reconciliation_gap`);
    await page.waitForSelector(`tr[data-item="${gapId}"]`);
    expect(await page.textContent(`tr[data-item="${gapId}"]`)).toContain(`day ${gapDay}`);
    await page.click(`tr[data-item="${gapId}"]`);
    await page.waitForSelector('#claim');
    expect(await page.textContent('h1')).toContain('A day was never reconciled');
    expect(await page.textContent('.facts')).toContain(gapDay);
    expect(await page.textContent('.item-main')).toContain('report file answered 500');
    await page.click('#claim');
    await page.waitForSelector('#decision-form');
    expect(await page.$$eval('input[name=action]', (inputs) => inputs.map((i) => i.getAttribute('value')))).toEqual(['acknowledge']);
    expect(await page.$$eval('select[name=followUp] option', (options) => options.map((o) => o.getAttribute('value')))).toEqual(['', 'recorded_externally', 'no_action']);
    await page.selectOption('select[name=followUp]', 'recorded_externally');
    await page.fill('textarea[name=reason]', 'Reconciled by hand against the Stripe dashboard export for that day.');
    await page.screenshot({ path: join(SHOTS, 'gap-item.png'), fullPage: true });
    await page.click('#decision-form button[type=submit]');
    await page.waitForURL((url) => url.hash === '#/');
    expect(await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ id: gapId })).toMatchObject({ state: 'closed', decision: 'acknowledge', followUp: 'recorded_externally', decidedBy: alice.name });
  });
});
