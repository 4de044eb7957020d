import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { loadConfigOrExit } from '@app/config';
import { dataSourceOptions, migrateDatabase } from '@app/database';
import { ApiTokenService, TokenNameTakenError } from '../api-token.service.js';

const { values } = parseArgs({ options: { name: { type: 'string' }, role: { type: 'string' } } });
const roles = ['merchant', 'reviewer', 'admin'] as const;
const role = roles.find((r) => r === values.role);
if (!values.name || !role) {
  console.error('usage: npm run token:create -- --name <name> --role merchant|reviewer|admin');
  process.exit(2);
}
const { DATABASE_URL } = loadConfigOrExit();
await migrateDatabase(DATABASE_URL);
const db = await new DataSource(dataSourceOptions(DATABASE_URL)).initialize();
try {
  const token = await new ApiTokenService(db).create(values.name, role);
  console.log(`token for ${values.name} (${role}), shown once:\n${token}`);
} catch (error) {
  if (!(error instanceof TokenNameTakenError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
