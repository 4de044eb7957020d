import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@app/config';
import { dataSourceOptions } from './data-source-options.js';
import { ScheduledRunClaim } from './scheduled-run.claim.js';
import { ReplicaReader } from './replica/replica-reader.js';
import { ConfiguredReplicaReader } from './replica/replica-reader.provider.js';

/**
 * The one TypeORM data layer every module shares, and the replica reader the allow-listed screens inject (the primary
 * when DATABASE_REPLICA_URL is unset). Migrations are applied by `migrateDatabase`, not here.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.DATABASE_URL), migrationsRun: false }),
    }),
  ],
  providers: [ScheduledRunClaim, { provide: ReplicaReader, useClass: ConfiguredReplicaReader }],
  exports: [ScheduledRunClaim, ReplicaReader],
})
export class DatabaseModule {}
