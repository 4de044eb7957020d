import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderHttpClient } from '@app/gateways';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, controlCall, stripeCall } from '../simulator-test-client.js';

const DAY = Date.UTC(2026, 10, 20) / 1000;
const http = new ProviderHttpClient({ connectTimeoutMs: 1000, readTimeoutMs: 2000 });

describe('simulator statement: balance transactions and the itemized report, from one ledger', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => sim.close());
  beforeEach(async () => sim.reset());

  it('a succeeded intent writes one charge line; a declined one writes none', async () => {
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ attemptId: 'att_ok' }), key: 'k1' });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ attemptId: 'att_no', paymentMethod: 'pm_card_chargeDeclined' }), key: 'k2' });
    const res = await stripeCall(sim, 'GET', '/v1/balance_transactions?limit=10&expand[]=data.source');
    expect(res.json.data).toHaveLength(1);
    const [txn] = res.json.data;
    expect(txn).toMatchObject({ object: 'balance_transaction', type: 'charge', reporting_category: 'charge', amount: 1000, currency: 'usd' });
    expect(txn.source).toMatchObject({ object: 'charge', payment_intent: sim.intents({ attemptId: 'att_ok' })[0].id, metadata: { attempt_id: 'att_ok' } });
  });

  it('lists a backdated day newest first across pages, with the created range and starting_after', async () => {
    const planted = sim.plantCharges(Array.from({ length: 25 }, (_, i) => ({ amount: 100 + i, created: DAY + i * 60 })));
    sim.plantCharges([{ amount: 999, created: DAY - 10 }, { amount: 999, created: DAY + 86_400 }]);
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const res = await stripeCall(sim, 'GET', `/v1/balance_transactions?created[gte]=${DAY}&created[lt]=${DAY + 86_400}&limit=10${after}`);
      seen.push(...res.json.data.map((t: { id: string }) => t.id));
      if (!res.json.has_more) break;
      after = `&starting_after=${res.json.data.at(-1).id}`;
    }
    expect(seen).toEqual(planted.map((p) => p.balanceTransactionId).reverse());
  });

  it('serves the same day as a report file in major units, with our metadata columns', async () => {
    const [charge] = sim.plantCharges([{ amount: 4990, created: DAY + 5, metadata: { attempt_id: 'a-1', charge_id: 'c-1' } }]);
    sim.addMovement(charge.paymentIntentId, 'refund', { amount: 1000, created: DAY + 50 });
    const body = new URLSearchParams({ report_type: 'balance_change_from_activity.itemized.3', 'parameters[interval_start]': String(DAY), 'parameters[interval_end]': String(DAY + 86_400) });
    for (const c of ['balance_transaction_id', 'created_utc', 'gross', 'reporting_category', 'payment_intent_id', 'payment_metadata[attempt_id]']) body.append('parameters[columns][]', c);
    const run = await stripeCall(sim, 'POST', '/v1/reporting/report_runs', { body: body.toString() });
    expect(run.json).toMatchObject({ object: 'reporting.report_run', status: 'succeeded' });
    const file = await http.send({ method: 'GET', url: run.json.result.url, headers: { Authorization: 'Bearer sk_test' } });
    if (file.kind !== 'response') throw new Error(file.kind);
    expect(file.body.trim().split('\n')).toEqual([
      'balance_transaction_id,created_utc,gross,reporting_category,payment_intent_id,payment_metadata[attempt_id]',
      `${charge.balanceTransactionId},2026-11-20 00:00:05,49.90,charge,${charge.paymentIntentId},a-1`,
      expect.stringMatching(new RegExp(`^txn_\\w+,2026-11-20 00:00:50,-10.00,refund,${charge.paymentIntentId},a-1$`)),
    ]);
  });

  it('a pending report run turns succeeded after the configured delay; the same key returns the same run', async () => {
    sim.configure({ reportDelayMs: 200 });
    const body = `report_type=balance_change_from_activity.itemized.3&parameters[interval_start]=${DAY}&parameters[interval_end]=${DAY + 10}`;
    const first = await stripeCall(sim, 'POST', '/v1/reporting/report_runs', { body, key: 'rk' });
    const again = await stripeCall(sim, 'POST', '/v1/reporting/report_runs', { body, key: 'rk' });
    expect(first.json.status).toBe('pending');
    expect(again.json.id).toBe(first.json.id);
    const started = Date.now();
    let status = 'pending';
    while (status === 'pending' && Date.now() - started < 2000) {
      status = (await stripeCall(sim, 'GET', `/v1/reporting/report_runs/${first.json.id}`)).json.status;
    }
    expect(status).toBe('succeeded');
  });

  it('models the report type\'s data_available_end: a week past now by default, held back through the control API', async () => {
    const path = '/v1/reporting/report_types/balance_change_from_activity.itemized.3';
    const open = await stripeCall(sim, 'GET', path);
    expect(open.json).toMatchObject({ object: 'reporting.report_type', id: 'balance_change_from_activity.itemized.3' });
    expect(open.json.data_available_end).toBeGreaterThan(Date.now() / 1000);
    expect((await controlCall(sim, 'POST', '/_sim/config', { reportDataAvailableEnd: DAY })).status).toBe(200);
    expect((await stripeCall(sim, 'GET', path)).json.data_available_end).toBe(DAY);
    sim.configure({ reportDataAvailableEnd: null });
    expect((await stripeCall(sim, 'GET', path)).json.data_available_end).toBeGreaterThan(Date.now() / 1000);
    expect((await stripeCall(sim, 'GET', '/v1/reporting/report_types/balance.summary.1')).status).toBe(404);
    expect(sim.stats().requests.reportTypes).toBe(4);
  });

  it('plants through the control API as well', async () => {
    const res = await controlCall(sim, 'POST', '/_sim/statement/charges', { charges: [{ amount: 500, created: DAY }] });
    expect(res.status).toBe(200);
    expect((await controlCall(sim, 'POST', `/_sim/intents/${res.json[0].paymentIntentId}/dispute`, { created: DAY + 1 })).status).toBe(200);
    const list = await stripeCall(sim, 'GET', `/v1/balance_transactions?created[gte]=${DAY}&created[lt]=${DAY + 60}`);
    expect(list.json.data.map((t: { reporting_category: string; amount: number }) => [t.reporting_category, t.amount])).toEqual([['dispute', -500], ['charge', 500]]);
  });
});
