import type { Pool, QueryResultRow } from 'pg';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../connection-loss.check.js';

/**
 * The one way to read a standby: raw read-only SQL, for the heavy screens and exports that can show a slightly old
 * picture. It is also the DI token, and only an allow-listed set of files may import it (.dependency-cruiser.cjs,
 * test/replica-reader-owner.test.ts): no money decision (opening an attempt, applying a fact, a refund cap, a balance,
 * a review decision) can be made from what a replica says, because what it says may be seconds behind.
 */
export abstract class ReplicaReader {
  /**
   * Runs `work` in one REPEATABLE READ, READ ONLY transaction (one snapshot for all its statements) on the replica
   * when its replay lag is at most `toleratedMs`; else, or with no replica configured or an unreachable one, on the
   * primary, read-only all the same: a write fails either way.
   */
  abstract read<T>(toleratedMs: number, work: (query: ReadQuery) => Promise<T>): Promise<T>;

  /** One statement, as `read` runs it. */
  query<R extends QueryResultRow>(toleratedMs: number, sql: string, params?: unknown[]): Promise<R[]> {
    return this.read(toleratedMs, (query) => query<R>(sql, params));
  }

  /** Reads since this process started, by who served them: what the operator needs to see the primary carrying them. */
  abstract readsServed(): ReadsServed[];
}

/**
 * `replica`: the standby answered. `primary`, because `no_replica` (none configured), `lag` (past what the read
 * tolerates, or a standby that cannot tell) or `unreachable`.
 */
export type ReadServedBy = { servedBy: 'replica'; reason: 'fresh' } | { servedBy: 'primary'; reason: 'no_replica' | 'lag' | 'unreachable' };
export type ReadsServed = ReadServedBy & { reads: number };

export type ReadQuery = <R extends QueryResultRow>(sql: string, params?: unknown[]) => Promise<R[]>;

/**
 * How far the standby's visible data is behind the primary, in ms. Replay caught up with what was received (an idle
 * primary sends nothing new) is no lag at all, whatever the age of the last replayed commit; otherwise the age of that
 * commit. A server not in recovery is a primary (no lag). A standby that streams nothing (its primary unreachable, or
 * a role that may not read pg_stat_wal_receiver) cannot tell how far behind it is: NULL, never served.
 */
const LAG_SQL = `
  SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0
              WHEN NOT EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN NULL
              WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
              ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000
         END::float8 AS lag_ms`;

const TOO_STALE = Symbol('too stale');

export class PostgresReplicaReader extends ReplicaReader {
  private readonly served = new Map<string, ReadsServed>();

  /** `replica` null: every read goes to the primary (DATABASE_REPLICA_URL unset). */
  constructor(
    private readonly primary: Pool,
    private readonly replica: Pool | null,
    private readonly onFallback: (reason: string) => void = () => undefined,
  ) {
    super();
  }

  async read<T>(toleratedMs: number, work: (query: ReadQuery) => Promise<T>): Promise<T> {
    if (!this.replica) return this.count({ servedBy: 'primary', reason: 'no_replica' }, () => readOnly(this.primary, work));
    let fallback: 'lag' | 'unreachable';
    try {
      const result = await readOnly(this.replica, async (query) => {
        const [{ lag_ms }] = await query<{ lag_ms: number | null }>(LAG_SQL);
        return lag_ms === null || lag_ms > toleratedMs ? TOO_STALE : work(query);
      });
      if (result !== TOO_STALE) return this.count({ servedBy: 'replica', reason: 'fresh' }, () => Promise.resolve(result));
      this.onFallback(`replica lag above ${toleratedMs} ms`);
      fallback = 'lag';
    } catch (error) {
      // The primary holds the same rows, fresher: a replica that is down costs the primary load, not the screen.
      if (!isDatabaseUnavailable(error)) throw error;
      this.onFallback('replica unreachable');
      fallback = 'unreachable';
    }
    return this.count({ servedBy: 'primary', reason: fallback }, () => readOnly(this.primary, work));
  }

  readsServed(): ReadsServed[] {
    return [...this.served.values()].map((entry) => ({ ...entry }));
  }

  /** Counted once answered: a read that failed was served by nobody. */
  private async count<T>(by: ReadServedBy, answer: () => Promise<T>): Promise<T> {
    const result = await answer();
    const key = `${by.servedBy}:${by.reason}`;
    const entry = this.served.get(key) ?? { ...by, reads: 0 };
    entry.reads += 1;
    this.served.set(key, entry);
    return result;
  }
}

async function readOnly<T>(pool: Pool, work: (query: ReadQuery) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // One connection runs one statement at a time: statements a caller starts together wait their turn here.
  let turn: Promise<unknown> = Promise.resolve();
  const query: ReadQuery = <R extends QueryResultRow>(sql: string, params: unknown[] = []) => {
    const rows = turn.then(async () => {
      try {
        return (await client.query<R>(sql, params)).rows;
      } catch (error) {
        // As TypeORM reports every other statement's failure, so the error filters and `isDatabaseUnavailable` read it alike.
        throw error instanceof Error && 'code' in error ? new QueryFailedError(sql, params, error) : error;
      }
    });
    turn = rows.catch(() => undefined);
    return rows;
  };
  let broken: Error | undefined;
  try {
    await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await work(query);
    await query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
    throw error;
  } finally {
    client.release(broken ?? false);
  }
}
