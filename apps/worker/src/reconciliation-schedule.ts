import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { AppConfig } from '@app/config';
import { GatewayRegistry } from '@app/gateways';
import { ReconciliationClock, ReconciliationRunsService, previousDay, readableProviders } from '@app/reconciliation';

/**
 * Every worker fires RECONCILIATION_CRON in RECONCILIATION_TZ and asks to run the previous day, and every day of
 * the last RECONCILIATION_CATCHUP_DAYS with no succeeded run; the database's unique index lets exactly one of them
 * have each. Every worker also looks, twice per lease, for a
 * run whose executor died (expired lease) and completes it. No Redis involved: the nightly net must hold
 * even when the queue has lost everything.
 */
@Injectable()
export class ReconciliationSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReconciliationSchedule.name);
  private readonly pending = new Set<Promise<unknown>>();
  /** Kept here: the schedule module may already have forgotten its jobs when our shutdown hook runs. */
  private nightlyJob: CronJob | null = null;

  constructor(
    private readonly runs: ReconciliationRunsService,
    private readonly gateways: GatewayRegistry,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
    private readonly clock: ReconciliationClock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.RECONCILIATION_CRON !== 'off') {
      const job = CronJob.from({
        cronTime: this.config.RECONCILIATION_CRON,
        timeZone: this.config.RECONCILIATION_TZ,
        onTick: () => this.track(this.nightly()),
        start: true,
      });
      this.registry.addCronJob('reconciliation-nightly', job);
      this.nightlyJob = job;
    }
    // Between nights: a failed day past its backoff, or a day the provider had no data for yet, is asked for again
    // within RECONCILIATION_RETRY_INTERVAL_MS, not a whole day later.
    if (this.config.RECONCILIATION_CRON !== 'off' && this.config.RECONCILIATION_RETRY_INTERVAL_MS > 0) {
      const retry = setInterval(() => this.track(this.retryTried()), this.config.RECONCILIATION_RETRY_INTERVAL_MS);
      this.registry.addInterval('reconciliation-retry', retry);
    }
    const everyMs = Math.max(500, Math.floor(this.config.RECONCILIATION_LEASE_MS / 2));
    this.registry.addInterval('reconciliation-takeover', setInterval(() => this.track(this.runs.takeOverExpired()), everyMs));
  }

  async onApplicationShutdown(): Promise<void> {
    void this.nightlyJob?.stop();
    await Promise.all(this.pending);
  }

  private async nightly(): Promise<void> {
    const day = previousDay(this.clock.now(), this.config.RECONCILIATION_TZ);
    // Only providers whose statement the adapter can read (each through the source it offers): the others are
    // reported as not reconciled, not failed.
    // Yesterday, and every earlier day of the catch-up window that never succeeded (a failed or missed night).
    for (const provider of readableProviders(this.gateways)) await this.runs.catchUp(provider, day);
  }

  private async retryTried(): Promise<void> {
    const day = previousDay(this.clock.now(), this.config.RECONCILIATION_TZ);
    for (const provider of readableProviders(this.gateways)) await this.runs.catchUp(provider, day, { triedOnly: true });
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.logger.error({ err: error }, 'reconciliation schedule failed')).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
