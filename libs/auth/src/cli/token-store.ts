import { DataSource } from 'typeorm';
import { loadConfigOrExit } from '@app/config';
import { dataSourceOptions, migrateDatabase } from '@app/database';
import { ApiTokenService } from '../api-token.service.js';

/** The token commands' one way in: the configured database, migrated, closed afterwards whatever happens. */
export async function withTokenStore(work: (tokens: ApiTokenService) => Promise<void>): Promise<void> {
  const { DATABASE_URL } = loadConfigOrExit();
  await migrateDatabase(DATABASE_URL);
  const db = await new DataSource(dataSourceOptions(DATABASE_URL)).initialize();
  try {
    await work(new ApiTokenService(db));
  } finally {
    await db.destroy();
  }
}
