import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@app/config';
import { dataSourceOptions } from './data-source-options.js';
import { ScheduledRunClaim } from './scheduled-run.claim.js';

/** The one TypeORM data layer every module shares. Migrations are applied by `migrateDatabase`, not here. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.DATABASE_URL), migrationsRun: false }),
    }),
  ],
  providers: [ScheduledRunClaim],
  exports: [ScheduledRunClaim],
})
export class DatabaseModule {}
