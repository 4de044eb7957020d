import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ChargeView } from '@app/charges';
import { ReviewItemEntity } from '@app/database';
import type { PayoutView } from '@app/payouts';
import { OpenAttemptSweeper } from '@app/resolution';
import type { EfiSimulator } from '@app/simulator';
import { createCharge, getCharge } from './charges.js';
import { fundedAccount, payoutBody } from './payouts.js';
import type { TestStack } from './test-stack.js';
import { waitFor } from './wait-for.js';

/** Efí's webhook route exists only with its authentication configured: the URL's secret hmac here. */
export const EFI_WEBHOOK_HMAC = 'redis-topology-hmac-0123456789abcdef0123';

const CHARGES_PER_ROUND = 12;
const settled = (v: ChargeView) => v.status === 'succeeded' || v.status === 'failed' || v.status === 'in_review';

export interface StormFigures {
  charges: number;
  succeeded: number;
  inReview: number;
  faults: number;
  resolutionQueries: number;
  webhooksDelivered: number;
  payouts: number;
  maxCreatesPerKey: number;
  orphans: number;
  sweptAfterSwitch: number;
  /** Submits answered 5xx while Redis was switching (their attempts finished by the sweeper). */
  failedDuringSwitch: number;
}

/**
 * A small storm on whatever Redis the stack is pointed at: charges whose responses are lost (so resolution queries
 * run), Stripe webhooks, a payout; then `switchOver` (a failover the caller causes and waits out), then as much work
 * again, with a round of submits racing the switch. Returns the figures once every attempt is resolved or in review, after checking the invariants: one
 * provider charge per idempotency key and per charge, every success recorded, no open attempt without an owner.
 */
export async function stormThroughSwitch(stack: TestStack, efi: EfiSimulator, switchOver: () => Promise<void>): Promise<StormFigures> {
  stack.sim.configure({ hangMs: 600, webhook: { url: `${stack.baseUrl}/webhooks/stripe`, duplicates: 1 } });
  stack.sim.setFaults({ random: { seed: 20261207, rates: { hang_after_create: 0.25, '500_after_create': 0.15, reset_before_read: 0.1, decline: 0.1 } } });
  efi.configure({ webhook: { url: `${stack.baseUrl}/webhooks/efi?hmac=${EFI_WEBHOOK_HMAC}&ignorar=` } });
  const accountId = await fundedAccount(stack, 10_000);
  const ids: string[] = [];
  const payoutIds: string[] = [];
  const statuses: number[] = [];
  /** While Redis is switching, a request may fail (5xx) but never half-do: whatever it committed the sweeper finishes. */
  const round = async (label: string, duringSwitch = false) => {
    const charges = await Promise.all(Array.from({ length: CHARGES_PER_ROUND }, (_, i) => createCharge(stack, { customerId: `cus_${label}_${i}_${randomUUID().slice(0, 6)}` })));
    ids.push(...charges.map((c) => c.id));
    const submits = await Promise.all(charges.map((c) => stack.http.post(`/charges/${c.id}/submit`).set(stack.auth('merchant'))));
    statuses.push(...submits.map((r) => r.status));
    const accepted = (status: number) => status === 200 || (duringSwitch && status >= 500);
    expect(submits.map((r) => r.status).filter((status) => !accepted(status)), JSON.stringify(submits.map((r) => r.body))).toEqual([]);
    if (duringSwitch) return;
    const payout = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).send(payoutBody(1_000));
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    payoutIds.push((payout.body as PayoutView).id);
  };

  await round('before');
  // Submits race the kill and the promotion.
  await Promise.all([switchOver(), round('during', true)]);
  // Whatever a lost write took from Redis, PostgreSQL still has: one sweep puts every open attempt back in hand.
  const swept = await stack.app.get(OpenAttemptSweeper).sweep();
  await round('after');

  const readAll = () => Promise.all(ids.map((id) => getCharge(stack, id)));
  const views = await waitFor(readAll, (vs) => vs.every(settled), 45_000, 'every charge to be resolved or in review');
  const readPayouts = () => Promise.all(payoutIds.map(async (id) => (await stack.http.get(`/payouts/${id}`).set(stack.auth('merchant'))).body as PayoutView));
  const payouts = await waitFor(readPayouts, (ps) => ps.every((p) => p.status !== 'processing'), 30_000, 'the payouts to settle');
  await stack.sim.webhooksIdle();

  const stats = stack.sim.stats();
  const maxCreatesPerKey = Math.max(...Object.values(stats.createsByIdempotencyKey));
  expect(maxCreatesPerKey, 'provider charges under one idempotency key').toBe(1);
  for (const view of views) {
    const taken = stack.sim.intents().filter((i) => i.metadata.charge_id === view.id && i.status === 'succeeded');
    expect(taken.length, `provider successes for charge ${view.id}`).toBeLessThanOrEqual(1);
    if (taken.length === 1 && view.status !== 'in_review') expect(view.attempts.filter((a) => a.status === 'succeeded').map((a) => a.providerChargeId)).toEqual([taken[0].id]);
  }
  let orphans = 0;
  for (const attempt of views.flatMap((v) => v.attempts.filter((a) => a.status === 'pending' || a.status === 'unknown'))) {
    if (attempt.status === 'pending' || (await stack.db.getRepository(ReviewItemEntity).countBy({ attemptId: attempt.id, state: 'open' })) !== 1) orphans++;
  }
  expect(orphans, 'open attempts nobody owns').toBe(0);
  expect(payouts.every((p) => p.status === 'succeeded' || p.status === 'failed' || p.status === 'in_review')).toBe(true);
  expect(Math.max(...Object.values(efi.stats().debitsByIdEnvio)), 'Pix transfers per payout').toBe(1);

  const figures: StormFigures = {
    charges: views.length,
    succeeded: views.filter((v) => v.status === 'succeeded').length,
    inReview: views.filter((v) => v.status === 'in_review').length,
    faults: Object.values(stats.faultsInjected).reduce((a, b) => a + b, 0),
    resolutionQueries: stats.requests.retrieves + stats.requests.lists + stats.requests.searches,
    webhooksDelivered: stats.webhooks.delivered,
    payouts: payouts.length,
    maxCreatesPerKey,
    orphans,
    sweptAfterSwitch: swept.resolutionsScheduled + swept.sendsResumed + swept.leasesExpired,
    failedDuringSwitch: statuses.filter((status) => status >= 500).length,
  };
  // The storm met what it was built to meet: lost responses that only a query could settle, and webhooks.
  expect(stats.faultsInjected.hang_after_create ?? 0).toBeGreaterThan(0);
  expect(figures.resolutionQueries).toBeGreaterThan(0);
  expect(figures.webhooksDelivered).toBeGreaterThan(0);
  expect(figures.succeeded).toBeGreaterThan(views.length / 3);
  return figures;
}
