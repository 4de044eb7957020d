import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AttemptJobs } from './attempt-jobs.js';
import { GatewayRegistry } from '@app/gateways';
import { MAINTENANCE_QUEUE, RESOLUTION_PROVIDERS, SUBMIT_QUEUE, resolutionQueueFor } from './queue-names.js';

/**
 * The Redis connection every queue shares. Redis is only a reminder: the database is the source of
 * truth and the sweeper re-enqueues whatever Redis forgets.
 */
/**
 * Bull counts in fixed windows, so `max` per second would allow twice that in a second straddling two
 * windows. Small windows, sized so that any sliding second touches no more windows than the budget
 * covers, keep every second within the provider's limit (from 2/s up) at about 90% of it on average.
 */
export function smoothLimiter(perSecond: number): { max: number; duration: number } {
  const max = Math.max(1, Math.floor(perSecond / 10));
  const windowsPerSecond = Math.floor(perSecond / max);
  // A sliding second touches ceil(1000 / duration) + 1 windows.
  const duration = windowsPerSecond > 1 ? Math.ceil(1000 / (windowsPerSecond - 1)) : 1000;
  return { max, duration };
}

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
    // Bull's limiter lives in Redis, so each provider's query budget (a capability of its adapter) holds
    // across every worker process: a backlog of unknowns cannot get the account blocked.
    BullModule.registerQueueAsync(
      ...RESOLUTION_PROVIDERS.map((provider) => ({
        name: resolutionQueueFor(provider),
        inject: [GatewayRegistry],
        useFactory: (gateways: GatewayRegistry) => ({ limiter: smoothLimiter(gateways.forAttempt(provider).capabilities.queryRatePerSecond) }),
      })),
    ),
  ],
  providers: [AttemptJobs],
  exports: [BullModule, AttemptJobs],
})
export class QueuesModule {}
