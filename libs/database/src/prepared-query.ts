import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * A named prepared statement on TypeORM's own `pg` pool (no second pool): parsed and planned once per
 * connection, then only bound and executed. For the hot path only (create, submit, auth), where building
 * SQL and entities per call costs more than the database does; everything else stays on TypeORM.
 */
export async function preparedQuery<R extends QueryResultRow>(db: DataSource, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = (db.driver as unknown as { master: Pool }).master;
  const result = await pool.query<R>({ name, text, values });
  return result.rows;
}
