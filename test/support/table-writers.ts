import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();

/**
 * The benches seed millions of finished charges and attempts straight into a scratch database, as fixtures: none is
 * ever sent or decided. Named one by one, so a new writer anywhere else still fails.
 */
export const BENCH_SEEDERS: ReadonlySet<string> = new Set(['apps/bench/src/bench-reconcile.subjects.ts', 'apps/bench/src/bench-resolve.ts', 'apps/bench/src/bench-lists.ts']);

/** Application sources (apps/*\/src, libs/*\/src, specs aside), each with its whitespace folded: SQL may span lines. */
export function applicationSources(): Array<{ file: string; text: string }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });
  return ['apps', 'libs']
    .flatMap((layer) => readdirSync(join(root, layer)).map((name) => join(root, layer, name, 'src')))
    .flatMap((src) => { try { return walk(src); } catch { return []; } })
    .map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8').replace(/\s+/g, ' ') }));
}

/** The forms a write of `tables` (a regex alternation) takes: SQL, and TypeORM calls on `entities` when given. */
export function writePatterns(tables: string, entities?: string): RegExp[] {
  const sql = new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${tables}\\b`, 'i');
  if (!entities) return [sql];
  return [
    sql,
    new RegExp(`\\.(insert|update|delete|save|upsert|softDelete)\\(\\s*${entities}\\b`),
    new RegExp(`getRepository\\(\\s*${entities}\\s*\\)\\s*\\.(insert|update|delete|save|upsert|softDelete|increment|decrement)\\(`),
  ];
}

/** Files outside `owner` (a folder prefix) and `allowed` that write with any of `patterns`. */
export function writersOutside(owner: string, patterns: RegExp[], allowed: ReadonlySet<string> = new Set()): string[] {
  return applicationSources()
    .filter(({ file }) => !file.startsWith(owner) && !allowed.has(file))
    .filter(({ text }) => patterns.some((p) => p.test(text)))
    .map(({ file }) => file);
}

/** Whether the owner's own files write with `patterns`: a broken walk would find no writer at all, and pass. */
export function ownerWrites(owner: string, patterns: RegExp[]): boolean {
  return applicationSources().some(({ file, text }) => file.startsWith(owner) && patterns.some((p) => p.test(text)));
}
