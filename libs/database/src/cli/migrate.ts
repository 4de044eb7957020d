import 'reflect-metadata';
import { loadConfigOrExit } from '@app/config';
import { migrateDatabase, revertLastMigration } from '../migrate.js';

const command = process.argv[2];
const { DATABASE_URL } = loadConfigOrExit();
if (command === 'run') {
  const applied = await migrateDatabase(DATABASE_URL);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
} else if (command === 'revert') {
  await revertLastMigration(DATABASE_URL);
  console.log('reverted the last migration');
} else {
  console.error('usage: migrate.js run|revert');
  process.exit(2);
}
