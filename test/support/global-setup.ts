import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { TEST_DATABASE_URL } from '../../vitest.config.js';

/** A fresh test database per run: dropped, created and migrated once, never the developer's own. */
export default async function setup(): Promise<void> {
  const url = new URL(TEST_DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(TEST_DATABASE_URL);
}
