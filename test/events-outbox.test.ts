import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptTransitionWriter } from '@app/attempts';
import { createCharge, submit } from './support/charges.js';
import { countFaultsFrom } from './support/fault-counter.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 34 part 1: an event is written with its fact, in the fact's transaction. A rolled-back change (or a
 * rolled-back savepoint inside a committed transaction) leaves no event; the committed change has exactly one,
 * with the object's next version; a write that changes no public status adds none. The outcome is committed as
 * the resolver commits one: the transition writer, in a transaction the test ends.
 */
describe('the events outbox', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  /** A charge left processing by a real fault (500 before create): its one attempt is unknown. */
  async function processingCharge(): Promise<{ chargeId: string; attemptId: string }> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const faults = countFaultsFrom(stack.sim);
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const view = await submit(stack, (await createCharge(stack, { customerId })).id);
    expect(faults('500_before_create')).toBe(1);
    expect(view.status).toBe('processing');
    return { chargeId: view.id, attemptId: view.attempts[0].id };
  }

  const eventsOf = async (objectId: string) =>
    (await stack.db.query<Array<{ type: string; object_version: number; status: string }>>(
      `SELECT type, object_version, object->>'status' AS status FROM events WHERE object_id = $1 ORDER BY seq`,
      [objectId],
    )).map((e) => `${e.type}@${e.object_version}:${e.status}`);

  /** Runs `work` in a transaction of its own, which `end` commits or rolls back. */
  async function inTransaction(work: (runner: QueryRunner) => Promise<void>, end: 'commit' | 'rollback'): Promise<void> {
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await work(runner);
      if (end === 'commit') await runner.commitTransaction();
      else await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
  }

  const succeed = (runner: QueryRunner, attemptId: string) =>
    stack.app.get(AttemptTransitionWriter).apply({ attemptId, from: 'unknown', to: 'succeeded', cause: 'resolver', actor: 'outbox-test' }, runner.manager);

  it('writes the event in the transaction of the fact: none after a rollback, exactly one after the commit', async () => {
    const { chargeId, attemptId } = await processingCharge();
    expect(await eventsOf(chargeId)).toEqual(['charge.processing@1:processing']);

    await inTransaction(async (runner) => expect(await succeed(runner, attemptId)).toBe(true), 'rollback');
    expect(await eventsOf(chargeId)).toEqual(['charge.processing@1:processing']);

    // A savepoint rolled back inside a transaction that commits forgets its change and the note of it.
    await inTransaction(async (runner) => {
      await runner.query('SAVEPOINT fact');
      expect(await succeed(runner, attemptId)).toBe(true);
      await runner.query('ROLLBACK TO SAVEPOINT fact');
    }, 'commit');
    expect(await eventsOf(chargeId)).toEqual(['charge.processing@1:processing']);
    expect((await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status).toBe('unknown');

    await inTransaction(async (runner) => expect(await succeed(runner, attemptId)).toBe(true), 'commit');
    expect(await eventsOf(chargeId)).toEqual(['charge.processing@1:processing', 'charge.succeeded@2:succeeded']);
  });

  it('adds no event for a write that leaves the public status as it was', async () => {
    const charge = await createCharge(stack);
    const view = await submit(stack, charge.id);
    expect(await eventsOf(charge.id)).toEqual(['charge.succeeded@1:succeeded']);
    // A late-fact column written again with the same value, and a charge column that is no status: no new event.
    await stack.db.query(`UPDATE attempts SET late_captured_at = NULL WHERE id = $1`, [view.attempts[0].id]);
    await stack.db.query(`UPDATE charges SET updated_at = now() WHERE id = $1`, [charge.id]);
    expect(await eventsOf(charge.id)).toEqual(['charge.succeeded@1:succeeded']);
  });
});
