import pg from 'pg';
import { migrateDatabase } from '@app/database';

/** Drops the database at `databaseUrl` if it exists and migrates a fresh one in its place; returns the url. */
export async function freshDatabase(databaseUrl: string): Promise<string> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(databaseUrl);
  return databaseUrl;
}

/**
 * A migrated database of the test file's own, named after the suite's. Reconciliation compares the provider's
 * whole statement with *all* our attempts of a day, so a reconciliation test must not share its tables with
 * other test files running in parallel (their charges would be "missing" from this file's simulator). Each
 * such file gets its own database and its own simulator (its own provider account), and sees only its data.
 */
export function scratchDatabase(suffix: string): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_${suffix}`;
  return freshDatabase(url.toString());
}
