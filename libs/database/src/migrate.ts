import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { ensureDatabase } from './ensure-database.js';

/** Creates the database if needed and applies pending migrations; safe to run from several processes. */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const dataSource = new DataSource(dataSourceOptions(databaseUrl));
  await dataSource.initialize();
  try {
    // The advisory lock keeps two processes starting together from applying the same migration twice.
    await dataSource.query('SELECT pg_advisory_lock(7224001)');
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock(7224001)');
    }
  } finally {
    await dataSource.destroy();
  }
}

export async function revertLastMigration(databaseUrl: string): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(databaseUrl));
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
