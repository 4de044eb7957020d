import type { Pool, QueryResultRow } from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';

/**
 * A named prepared statement on TypeORM's own `pg` pool (no second pool): parsed and planned once per
 * connection, then only bound and executed. For the hot path only (create, submit, auth), where building
 * SQL and entities per call costs more than the database does; everything else stays on TypeORM. Errors come
 * back as TypeORM's QueryFailedError, so `isUniqueViolation` and every caller read them the same way.
 */
export async function preparedQuery<R extends QueryResultRow>(db: DataSource, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = (db.driver as unknown as { master: Pool }).master;
  try {
    const result = await pool.query<R>({ name, text, values });
    return result.rows;
  } catch (error) {
    if (error instanceof Error && 'code' in error) throw new QueryFailedError(text, values, error);
    throw error;
  }
}
