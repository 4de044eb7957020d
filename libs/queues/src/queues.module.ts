import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AttemptJobs } from './attempt-jobs.js';
import { GatewayRegistry, PROVIDERS } from '@app/gateways';
import { smoothLimiter } from './rules/smooth-limiter.js';
import { RECONCILIATION_RUN_QUEUE, SUBMIT_QUEUE, resolutionQueueFor } from './queue-names.js';
import { ReconciliationRunJobs } from './reconciliation-run-jobs.js';

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
    BullModule.registerQueue({ name: SUBMIT_QUEUE }, { name: RECONCILIATION_RUN_QUEUE }),
    // Bull's limiter lives in Redis, so each provider's query budget (a capability of its adapter) holds
    // across every worker process: a backlog of unknowns cannot get the account blocked.
    BullModule.registerQueueAsync(
      ...PROVIDERS.map((provider) => ({
        name: resolutionQueueFor(provider),
        inject: [GatewayRegistry],
        useFactory: (gateways: GatewayRegistry) => ({ limiter: smoothLimiter(gateways.forAttempt(provider).capabilities.queryRatePerSecond) }),
      })),
    ),
  ],
  providers: [AttemptJobs, ReconciliationRunJobs],
  exports: [BullModule, AttemptJobs, ReconciliationRunJobs],
})
export class QueuesModule {}
