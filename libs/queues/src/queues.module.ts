import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AttemptJobs } from './attempt-jobs.js';
import { BullRedisClients, BullRedisModule } from './bull-redis.clients.js';
import { PROVIDERS } from '@app/gateways';
import { ProviderQueryPacer } from './provider-query.pacer.js';
import { RECONCILIATION_RUN_QUEUE, SUBMIT_QUEUE, resolutionQueueFor } from './queue-names.js';
import { ReconciliationRunJobs } from './reconciliation-run-jobs.js';

/**
 * The Redis every queue shares, in any of its shapes (BullRedisClients). Redis is only a reminder: the database is the source of
 * truth and the sweeper re-enqueues whatever Redis forgets.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      imports: [BullRedisModule],
      inject: [AppConfig, BullRedisClients],
      useFactory: (config: AppConfig, clients: BullRedisClients) => ({
        createClient: clients.createClient,
        prefix: config.QUEUE_PREFIX,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    // No Bull limiter on the resolution queues: each provider's query budget is spent by ProviderQueryPacer right
    // before the query leaves, in Redis too, so it holds across every worker process.
    BullModule.registerQueue(
      { name: SUBMIT_QUEUE },
      { name: RECONCILIATION_RUN_QUEUE },
      ...PROVIDERS.map((provider) => ({ name: resolutionQueueFor(provider) })),
    ),
  ],
  providers: [AttemptJobs, ReconciliationRunJobs, ProviderQueryPacer],
  exports: [BullModule, AttemptJobs, ReconciliationRunJobs, ProviderQueryPacer],
})
export class QueuesModule {}
