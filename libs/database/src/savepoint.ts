import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { isUniqueViolation } from './unique-violation.check.js';

/**
 * Runs `write` inside a savepoint of the caller's transaction. A unique violation (the database refusing a
 * second success, or a provider charge already owned) rolls back only the savepoint and yields `null`, so the
 * evidence written earlier in the transaction still commits together with whatever the caller does next.
 */
export async function uniqueOrNull<T>(em: EntityManager, write: () => Promise<T>): Promise<T | null> {
  const name = `sp_${randomUUID().replace(/-/g, '')}`;
  await em.query(`SAVEPOINT ${name}`);
  try {
    const result = await write();
    await em.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await em.query(`ROLLBACK TO SAVEPOINT ${name}`);
    return null;
  }
}
