import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();

/** The tables only the attempts' store writes: every attempt, its audit trail and its evidence go through it. */
const STORE = 'libs/attempts/src/store/';
const OWNED = '(attempts|attempt_transitions|provider_calls)';
const OWNED_ENTITY = '(AttemptEntity|AttemptTransitionEntity|ProviderCallEntity)';
const WRITES = [
  new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${OWNED}\\b`, 'i'),
  new RegExp(`\\.(insert|update|delete|save|upsert|softDelete)\\(\\s*${OWNED_ENTITY}\\b`),
  new RegExp(`getRepository\\(\\s*${OWNED_ENTITY}\\s*\\)\\s*\\.(insert|update|delete|save|upsert|softDelete|increment|decrement)\\(`),
];

/**
 * The benches seed millions of finished attempts straight into a scratch database, as fixtures: no attempt there is
 * ever sent or decided. Named one by one, so a new writer anywhere else still fails.
 */
const SEEDERS = new Set(['apps/bench/src/bench-reconcile.subjects.ts', 'apps/bench/src/bench-resolve.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function writersOutsideTheStore(): string[] {
  const layers = ['apps', 'libs'].flatMap((layer) => readdirSync(join(root, layer)).map((name) => join(root, layer, name, 'src')));
  return layers
    .flatMap((src) => { try { return sources(src); } catch { return []; } })
    .map((file) => relative(root, file))
    .filter((file) => !file.startsWith(STORE) && !SEEDERS.has(file))
    .filter((file) => {
      // SQL may span lines: match on the file with its whitespace folded.
      const text = readFileSync(join(root, file), 'utf8').replace(/\s+/g, ' ');
      return WRITES.some((write) => write.test(text));
    });
}

describe('the attempt tables', () => {
  it('are written by the attempts\' store alone (migrations and the benches\' seeded fixtures aside)', () => {
    expect(writersOutsideTheStore()).toEqual([]);
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
