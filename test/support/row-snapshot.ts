import type { DataSource } from 'typeorm';

/** Per table of the public schema: its row count and a checksum of its rows (so an UPDATE shows too). */
export type RowSnapshot = Record<string, string>;

/**
 * One query that counts and checksums every table of the public schema except `excluded`: cheap while the
 * tables hold a test's few thousand rows, and it sees an UPDATE or a DELETE as well as an INSERT.
 */
export async function rowSnapshotter(db: DataSource, excluded: string[] = []): Promise<() => Promise<RowSnapshot>> {
  const tables = (
    await db.query<Array<{ name: string }>>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )
  )
    .map((t) => t.name)
    .filter((name) => !excluded.includes(name));
  const sql = tables
    .map((name) => `SELECT '${name}' AS name, count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) AS state FROM "${name}" t`)
    .join(' UNION ALL ');
  return async () => Object.fromEntries((await db.query<Array<{ name: string; state: string }>>(sql)).map((r) => [r.name, r.state]));
}

/** The tables whose rows differ between two snapshots, as `table: before → after`. */
export function changedTables(before: RowSnapshot, after: RowSnapshot): string[] {
  return Object.keys(before).filter((t) => before[t] !== after[t]).map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
