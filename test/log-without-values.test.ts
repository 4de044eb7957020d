import { Writable } from 'node:stream';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '@app/database';
import { pinoOptions } from '@app/observability';

/** A payee's CPF: what a failed statement's log line once printed. */
const SECRET = '39053344705';

/** Every line the logger writes, parsed. */
function capture(options: pino.LoggerOptions, through: 'pino-http' | 'pino'): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  // nestjs-pino builds the services' root logger through pino-http, which wraps every serializer it is given.
  return { log: through === 'pino-http' ? pinoHttp(options as never, sink).logger : pino(options, sink), lines };
}

describe('a failed SQL statement in the log', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    await db.query(`CREATE TABLE IF NOT EXISTS log_test_pix (key text CHECK (length(key) < 5))`);
  });
  afterAll(() => db?.destroy());

  /** Real PostgreSQL refusals that quote or carry the value: a bad uuid, a CHECK's failing row, a bad encoding. */
  const failures = [
    () => db.query(`SELECT $1::uuid`, [SECRET]),
    () => db.query(`SELECT $1::int FROM (SELECT $2::text) t`, [`x${SECRET}`, SECRET]),
    () => db.query(`INSERT INTO log_test_pix (key) VALUES ($1)`, [SECRET]),
    () => db.query(`SELECT $1::text`, [`${SECRET}\u0000`]),
  ];

  it('never prints the values it was given, only what finds the statement and the rule', async () => {
    const { log, lines } = capture(pinoOptions({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', OTEL_EXPORTER_OTLP_ENDPOINT: undefined }), 'pino-http');
    for (const fail of failures) {
      const error = await fail().then(() => null, (e: unknown) => e);
      expect(error, 'the statement failed').toBeInstanceOf(Error);
      log.error({ err: error }, 'query failed');
    }
    expect(lines).toHaveLength(failures.length);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      const { err } = JSON.parse(line) as { err: { code?: string; driverError?: { code: string }; message: string } };
      expect(err.driverError?.code ?? err.code, line).toMatch(/^[0-9A-Z]{5}$/);
    }
  });

  it('would print them with pino\'s own error serializer: the check above is not vacuous', async () => {
    const { log, lines } = capture({ level: 'info' }, 'pino-http');
    log.error({ err: await failures[0]().catch((e: unknown) => e) }, 'query failed');
    expect(lines[0]).toContain(SECRET);
  });
});
