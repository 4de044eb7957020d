import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';

/**
 * The Redis connection every queue shares. Redis is only a reminder: the database is the source of
 * truth and the sweeper re-enqueues whatever Redis forgets.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        redis: config.REDIS_URL,
        prefix: 'charge-once',
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
  ],
})
export class QueuesModule {}
