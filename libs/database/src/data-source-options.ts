import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../migrations/index.js';
import { ENTITIES } from './entities/index.js';

/** One definition for the app, the tests and the TypeORM CLI. Schema changes only through migrations. */
export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    installExtensions: false,
    logging: false,
    extra: { max: 20, connectionTimeoutMillis: 5000 },
  };
}
