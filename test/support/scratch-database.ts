import pg from 'pg';
import { migrateDatabase } from '@app/database';

/**
 * A migrated database of the test file's own, named after the suite's. Reconciliation compares the provider's
 * whole statement with *all* our attempts of a day, so a reconciliation test must not share its tables with
 * other test files running in parallel (their charges would be "missing" from this file's simulator). Each
 * such file gets its own database and its own simulator (its own provider account), and sees only its data.
 */
export async function scratchDatabase(suffix: string): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `${url.pathname.slice(1)}_${suffix}`;
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return url.toString();
}
