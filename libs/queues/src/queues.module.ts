import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AttemptJobs } from './attempt-jobs.js';
import { MAINTENANCE_QUEUE, RESOLUTION_QUEUE, SUBMIT_QUEUE } from './queue-names.js';

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
        prefix: config.QUEUE_PREFIX,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueue({ name: SUBMIT_QUEUE }, { name: MAINTENANCE_QUEUE }),
    // Bull's limiter lives in Redis, so the provider's query budget holds across every worker process:
    // a backlog of unknowns cannot get the account blocked.
    BullModule.registerQueueAsync({
      name: RESOLUTION_QUEUE,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ limiter: { max: config.STRIPE_QUERY_RATE_PER_S, duration: 1000 } }),
    }),
  ],
  providers: [AttemptJobs],
  exports: [BullModule, AttemptJobs],
})
export class QueuesModule {}
