import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, stripeCall } from '../simulator-test-client.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function createIntents(count: number, customer = 'cus_list'): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const body = chargeBody({ customer, attemptId: `att_${index}` });
    ids.push((await stripeCall(sim, 'POST', '/v1/payment_intents', { body })).json.id as string);
  }
  return ids;
}

describe('the simulated Stripe API: reading payment intents', () => {
  it('retrieves an intent by id, and answers 404 resource_missing for an unknown one', async () => {
    const [id] = await createIntents(1);

    const found = await stripeCall(sim, 'GET', `/v1/payment_intents/${id}`);
    const missing = await stripeCall(sim, 'GET', '/v1/payment_intents/pi_nope');

    expect(found).toMatchObject({ status: 200, json: { id } });
    expect(missing).toMatchObject({ status: 404, json: { error: { code: 'resource_missing' } } });
  });

  it('lists a customer’s intents newest first, paging with starting_after', async () => {
    const ids = await createIntents(5);
    await createIntents(2, 'cus_other');

    const first = await stripeCall(sim, 'GET', '/v1/payment_intents?customer=cus_list&limit=3');
    const second = await stripeCall(sim, 'GET', `/v1/payment_intents?customer=cus_list&limit=3&starting_after=${ids[2]}`);

    expect(first.json).toMatchObject({ object: 'list', has_more: true, url: '/v1/payment_intents' });
    expect(first.json.data.map((pi: { id: string }) => pi.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(second.json.has_more).toBe(false);
    expect(second.json.data.map((pi: { id: string }) => pi.id)).toEqual([ids[1], ids[0]]);
    expect(sim.stats().requests.lists).toBe(2);
  });

  it('treats starting_after as a cursor in the global order, even for an intent the filter excludes', async () => {
    const [older] = await createIntents(1, 'cus_list');
    const [between] = await createIntents(1, 'cus_other');
    await createIntents(1, 'cus_list');

    const page = await stripeCall(sim, 'GET', `/v1/payment_intents?customer=cus_list&starting_after=${between}`);

    expect(page.json.data.map((pi: { id: string }) => pi.id)).toEqual([older]);
  });

  it('filters the list by created range', async () => {
    await createIntents(2);
    const now = Math.floor(Date.now() / 1000);

    const inside = await stripeCall(sim, 'GET', `/v1/payment_intents?created[gte]=${now - 5}&created[lte]=${now + 5}`);
    const before = await stripeCall(sim, 'GET', `/v1/payment_intents?created[lt]=${now - 5}`);
    const after = await stripeCall(sim, 'GET', `/v1/payment_intents?created[gt]=${now + 5}`);

    expect(inside.json.data).toHaveLength(2);
    expect(before.json.data).toHaveLength(0);
    expect(after.json.data).toHaveLength(0);
  });

  it.each([['limit=0'], ['limit=101'], ['limit=x'], ['created[gte]=soon'], ['starting_after=pi_unknown']])(
    'refuses the list parameter %s with 400',
    async (query) => {
      expect((await stripeCall(sim, 'GET', `/v1/payment_intents?${query}`)).status).toBe(400);
    },
  );

  it('finds intents by metadata through search, in both quoting styles', async () => {
    await createIntents(3);

    for (const query of [`metadata['attempt_id']:'att_1'`, `metadata["attempt_id"]:"att_1" AND customer:"cus_list"`]) {
      const response = await stripeCall(sim, 'GET', `/v1/payment_intents/search?query=${encodeURIComponent(query)}`);
      expect(response.json).toMatchObject({ object: 'search_result', has_more: false, next_page: null });
      expect(response.json.data.map((pi: { metadata: { attempt_id: string } }) => pi.metadata.attempt_id)).toEqual([
        'att_1',
      ]);
    }
  });

  it('pages search results with next_page', async () => {
    await createIntents(3);
    const query = encodeURIComponent('customer:"cus_list"');

    const first = await stripeCall(sim, 'GET', `/v1/payment_intents/search?query=${query}&limit=2`);
    const second = await stripeCall(sim, 'GET', `/v1/payment_intents/search?query=${query}&limit=2&page=${first.json.next_page}`);

    expect(first.json).toMatchObject({ has_more: true });
    expect(second.json).toMatchObject({ has_more: false, next_page: null });
    expect(second.json.data).toHaveLength(1);
  });

  it('hides new intents from search for the configured lag, but never from the list', async () => {
    sim.configure({ searchLagMs: 60_000 });
    await createIntents(1);
    const query = encodeURIComponent(`metadata['attempt_id']:'att_0'`);

    const searched = await stripeCall(sim, 'GET', `/v1/payment_intents/search?query=${query}`);
    const listed = await stripeCall(sim, 'GET', '/v1/payment_intents?customer=cus_list');

    expect(searched.json.data).toHaveLength(0);
    expect(listed.json.data).toHaveLength(1);
  });

  it('refuses a search it cannot parse with 400', async () => {
    const response = await stripeCall(sim, 'GET', `/v1/payment_intents/search?query=${encodeURIComponent('amount>5')}`);

    expect(response).toMatchObject({ status: 400, json: { error: { type: 'invalid_request_error' } } });
  });

  it('injects planned query faults on lookups, then answers normally', async () => {
    sim.setFaults({ rules: [{ fault: '500', on: 'query' }, { fault: '429', on: 'query' }] });

    const failed = await stripeCall(sim, 'GET', '/v1/payment_intents');
    const limited = await stripeCall(sim, 'GET', '/v1/payment_intents/search?query=customer:"x"');
    const normal = await stripeCall(sim, 'GET', '/v1/payment_intents');

    expect([failed.status, limited.status, normal.status]).toEqual([500, 429, 200]);
    expect(sim.stats().faultsInjected).toEqual({ query_500: 1, query_429: 1 });
  });
});
