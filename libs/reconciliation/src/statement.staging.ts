import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { StatementMovedError, type StatementLine } from '@app/gateways';
import { isUuid } from '@app/common';

/**
 * The day's statement goes into a temporary table on the run's own connection through COPY FROM STDIN, in
 * chunks of 256 KiB with the stream's backpressure: memory holds a chunk or two, never the day.
 * Temporary, so a run that dies leaves nothing behind and a taken-over run starts from a clean table.
 */
export const STAGING_TABLE = 'pg_temp.reconciliation_statement';
// Rows are written into a Buffer, outside the JS heap, and each row's string dies at once: a chunk of strings kept
// alive until sent was promoted to the old generation, which then grew with the day. Large chunks, few writes.
const CHUNK_BYTES = 256 * 1024;
// UTF-8 needs at most 3 bytes per UTF-16 code unit: a row this long always fits in what is left.
const MAX_BYTES_PER_CHAR = 3;
export async function createStagingTable(client: PoolClient): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${STAGING_TABLE}`);
  // The run's statements each pass over the day once: compiling them (JIT) cost more than it saved (13.3 s vs
  // 9.4 s classifying a million lines, measured under the same load). Session-wide until dropStagingTable.
  await client.query(`SET jit = off`);
  await client.query(`
    CREATE TEMPORARY TABLE reconciliation_statement (
      line_id text NOT NULL,
      kind text NOT NULL,
      provider_charge_id text,
      attempt_ref uuid,
      charge_ref uuid,
      amount_cents bigint NOT NULL,
      currency text NOT NULL,
      created_at timestamptz NOT NULL,
      reference text,
      provider_status text
    )`);
}

/** Streams every line into the staging table; returns how many were read. */
async function copyStatement(client: PoolClient, lines: AsyncIterable<StatementLine>): Promise<number> {
  let count = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    for await (const line of lines) {
      const row = copyRow(line);
      count += 1;
      if (used + row.length * MAX_BYTES_PER_CHAR > CHUNK_BYTES) {
        if (used > 0) yield chunk.subarray(0, used);
        chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, row.length * MAX_BYTES_PER_CHAR));
        used = 0;
      }
      used += chunk.write(row, used);
    }
    if (used > 0) yield chunk.subarray(0, used);
  }
  const copy = client.query(
    copyFrom(`COPY ${STAGING_TABLE} (line_id, kind, provider_charge_id, attempt_ref, charge_ref, amount_cents, currency, created_at, reference, provider_status) FROM STDIN`),
  );
  // One chunk waiting ahead of COPY at most (Readable.from would buffer 16): the day's memory stays a chunk or two.
  await pipeline(Readable.from(chunks(), { highWaterMark: 1 }), copy);
  return count;
}

/** How many times a day whose statement moved while it was read is read again before the run fails. */
const READS_OF_A_MOVING_STATEMENT = 3;

/**
 * Copies the whole statement; one that moved while it was paged (StatementMovedError) is read again from the
 * start, a bounded number of times. The failed COPY left no row behind: each read starts from an empty table.
 */
export async function copyWholeStatement(client: PoolClient, open: () => AsyncIterable<StatementLine>): Promise<number> {
  for (let read = 1; ; read += 1) {
    try {
      return await copyStatement(client, open());
    } catch (error) {
      if (!(error instanceof StatementMovedError) || read === READS_OF_A_MOVING_STATEMENT) throw error;
      await client.query(`TRUNCATE ${STAGING_TABLE}`);
    }
  }
}

/** Built after the load (one sort each) rather than maintained row by row during it. */
export async function indexStagingTable(client: PoolClient): Promise<void> {
  await client.query(`CREATE INDEX ON ${STAGING_TABLE} (provider_charge_id)`);
  await client.query(`CREATE INDEX ON ${STAGING_TABLE} (attempt_ref) WHERE attempt_ref IS NOT NULL`);
  await client.query(`CREATE INDEX ON ${STAGING_TABLE} (reference) WHERE kind = 'refund'`);
  // Each refund line asks whether a reversal of it is staged: a probe, not a scan of a million-line day.
  await client.query(`CREATE INDEX ON ${STAGING_TABLE} (reference) WHERE kind = 'refund_failure'`);
  await client.query(`ANALYZE ${STAGING_TABLE}`);
}

export async function dropStagingTable(client: PoolClient): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${STAGING_TABLE}`);
  await client.query(`RESET jit`);
}

/** One line in COPY's text format: tab-separated, `\N` for null, backslash escapes for the rest. */
export function copyRow(line: StatementLine): string {
  // String concatenation, no intermediate array: this runs once per line of a million-line day.
  return (
    copyField(line.lineId) +
    '\t' +
    copyField(line.kind) +
    '\t' +
    copyField(line.providerChargeId) +
    '\t' +
    uuidOrNull(line.attemptId) +
    '\t' +
    uuidOrNull(line.chargeId) +
    '\t' +
    String(line.amountCents) +
    '\t' +
    copyField(line.currency) +
    '\t' +
    line.createdAt.toISOString() +
    '\t' +
    copyField(line.reference ?? null) +
    '\t' +
    copyField(line.providerStatus ?? null) +
    '\n'
  );
}

function uuidOrNull(value: string | null): string {
  return value !== null && isUuid(value) ? value.toLowerCase() : '\\N';
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;

function copyField(value: string | null): string {
  if (value === null) return '\\N';
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}
