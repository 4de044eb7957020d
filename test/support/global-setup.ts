import { TEST_DATABASE_URL } from '../../vitest.config.js';
import { freshDatabase } from './scratch-database.js';

/** A fresh test database per run: dropped, created and migrated once, never the developer's own. */
export default async function setup(): Promise<void> {
  await freshDatabase(TEST_DATABASE_URL);
}
