import pg from 'pg';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { dataSourceOptions, migrateDatabase } from '@app/database';
import { MIGRATIONS } from '../migrations/index.js';

/** Runs on a database of its own so reverting never pulls tables from under the other test files. */
describe('migrations', () => {
  it('revert every migration, then run them all again, cleanly', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    // Named after the suite's database, so two checkouts testing side by side never drop each other's.
    const name = `${url.pathname.slice(1)}_migrations`;
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL!.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();

    expect(await migrateDatabase(url.toString())).toHaveLength(MIGRATIONS.length);
    const db = await new DataSource(dataSourceOptions(url.toString())).initialize();
    try {
      for (let i = 0; i < MIGRATIONS.length; i++) await db.undoLastMigration();
      const tables = await db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'typeorm_migrations'`);
      expect(tables[0].n).toBe(0);
      expect((await db.runMigrations()).length).toBe(MIGRATIONS.length);
      expect(await db.showMigrations()).toBe(false);
    } finally {
      await db.destroy();
    }
  });

  it('leave the schema exactly as the entities describe it, so migration:generate proposes nothing', async () => {
    const db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    try {
      const drift = await db.driver.createSchemaBuilder().log();
      expect(drift.upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
