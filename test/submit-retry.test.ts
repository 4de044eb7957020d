import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { countFaultsFrom } from './support/fault-counter.js';

/** Retries are queued jobs run by the worker, with the same key and the same bytes every time. */
describe('retrying a pending attempt', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
  });
  afterAll(async () => stack.close());

  it('after a 429 the worker resends the same key and byte-identical payload, and the charge succeeds once', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const faults = countFaultsFrom(stack.sim);
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId }, times: 2 }] });
    const charge = await createCharge(stack, { customerId });
    const first = await submit(stack, charge.id);
    expect(first.attempts[0].status).toBe('pending');
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the retried charge to succeed');
    const attempt = done.attempts[0];
    expect(done.attempts).toHaveLength(1);
    expect(attempt.httpAttempts).toBe(3);
    const requests = stack.sim.requests(attempt.idempotencyKey);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);
    expect(faults('429')).toBe(2);
    expect(stack.sim.stats().createsByIdempotencyKey[attempt.idempotencyKey]).toBe(1);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→succeeded:submit']);
  });

  it('after a refused connection the worker sends the same key and bytes once the provider is reachable', async () => {
    const charge = await createCharge(stack);
    await stack.sim.refuseConnections();
    const first = await submit(stack, charge.id);
    const { idempotencyKey } = first.attempts[0];
    expect(first.attempts[0]).toMatchObject({ status: 'pending', lastError: { reason: 'connect_failed' } });
    expect(stack.sim.requests(idempotencyKey)).toHaveLength(0);
    await stack.sim.acceptConnections();
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the charge to succeed after reconnecting');
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0].idempotencyKey).toBe(idempotencyKey);
    const requests = stack.sim.requests(idempotencyKey);
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests[0].rawBody).toBe((await stack.db.query('SELECT payload FROM attempts WHERE id = $1', [done.attempts[0].id]))[0].payload);
    expect(stack.sim.stats().createsByIdempotencyKey[idempotencyKey]).toBe(1);
  });
});
