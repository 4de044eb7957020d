import { describe, expect, it } from 'vitest';
import { BENCH_SEEDERS, ownerWrites, writePatterns, writersOutside } from './support/table-writers.js';

/** The tables only the attempts' store writes: every attempt, its audit trail and its evidence go through it. */
const STORE = 'libs/attempts/src/store/';
const WRITES = writePatterns('(attempts|attempt_transitions|provider_calls)', '(AttemptEntity|AttemptTransitionEntity|ProviderCallEntity)');

describe('the attempt tables', () => {
  it('are written by the attempts\' store alone (migrations and the benches\' seeded fixtures aside)', () => {
    expect(ownerWrites(STORE, WRITES)).toBe(true);
    expect(writersOutside(STORE, WRITES, BENCH_SEEDERS)).toEqual([]);
  });

  it('would catch a writer elsewhere: the patterns match the forms the codebase uses', () => {
    const samples = [
      'UPDATE attempts SET status = $2 WHERE id = $1',
      "INSERT INTO\n  attempt_transitions (attempt_id) VALUES ($1)",
      'DELETE FROM provider_calls WHERE id = $1',
      'await em.insert(AttemptEntity, attempt)',
      'await em.getRepository(ProviderCallEntity).insert({ attemptId })',
    ];
    for (const sample of samples) expect(WRITES.some((write) => write.test(sample.replace(/\s+/g, ' '))), sample).toBe(true);
    expect(WRITES.some((write) => write.test('SELECT status FROM attempts WHERE id = $1'))).toBe(false);
  });
});
