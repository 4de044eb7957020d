import type { ClientBase } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../migrations/index.js';
import { ENTITIES } from './entities/index.js';

let connectionLosses = 0;

/**
 * How many pooled connections this process has seen fail. A commit can be lost (a failover) only where
 * connections failed, so what this process remembers of rows written before a loss is a hint no longer.
 */
export function databaseConnectionLosses(): number {
  return connectionLosses;
}

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
    extra: {
      max: 20,
      connectionTimeoutMillis: 5000,
      // When PostgreSQL drops a connection (restart, failover) a pg client can emit 'error' more than once,
      // and TypeORM stops listening after the first: a second emission would be an unhandled 'error' event
      // that kills api or worker. The failing queries already report the loss; this keeps it from crashing.
      onConnect: (client: ClientBase) => client.on('error', () => (connectionLosses += 1)),
    },
  };
}
