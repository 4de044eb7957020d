import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_STATUSES, allowedTransitionPairs, canTransition } from '@app/attempts/rules';
import { createCharge, submit } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * The attempt state machine is one table, held by the database too: every write of attempts.status, from any path
 * (hand SQL included), is refused unless the TypeScript table allows it.
 */
describe('the attempt state table in the database', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('holds exactly the pairs of the TypeScript state machine', async () => {
    const rows = await stack.db.query<Array<{ from_status: string; to_status: string }>>(`SELECT from_status, to_status FROM attempt_status_transitions`);
    const sql = rows.map((r) => `${r.from_status}→${r.to_status}`).sort();
    expect(sql).toEqual(allowedTransitionPairs().map(([from, to]) => `${from}→${to}`).sort());
  });

  it('refuses every status write the table refuses, whatever writes it, and lets every allowed one through', async () => {
    const charge = await createCharge(stack);
    const [attempt] = (await submit(stack, charge.id)).attempts;
    const outcomes: string[] = [];
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      for (const from of ATTEMPT_STATUSES) {
        for (const to of ATTEMPT_STATUSES) {
          if (from === to) continue;
          await runner.query(`SAVEPOINT pair`);
          // Put the row in `from` without the trigger (replica mode skips user triggers), then write as any code would.
          await runner.query(`SET LOCAL session_replication_role = replica`);
          await runner.query(`UPDATE attempts SET status = $2 WHERE id = $1`, [attempt.id, from]);
          await runner.query(`SET LOCAL session_replication_role = origin`);
          const refused = await runner.query(`UPDATE attempts SET status = $2 WHERE id = $1`, [attempt.id, to]).then(
            () => null,
            (error: { code?: string }) => error.code ?? 'error',
          );
          outcomes.push(`${from}→${to}:${refused ?? 'ok'}`);
          expect(refused === null, `${from}→${to}`).toBe(canTransition(from, to));
          if (refused !== null) expect(refused).toBe('CO422');
          await runner.query(`ROLLBACK TO SAVEPOINT pair`);
        }
      }
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
    expect(outcomes.filter((o) => o.endsWith(':CO422'))).toHaveLength(ATTEMPT_STATUSES.length * (ATTEMPT_STATUSES.length - 1) - allowedTransitionPairs().length);
    // Nothing above committed: the attempt is as the submit left it.
    expect((await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attempt.id]))[0].status).toBe('succeeded');
  });
});
