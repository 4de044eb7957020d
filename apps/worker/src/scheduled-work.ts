import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IdempotencyRecordJanitor } from '@app/charges';
import { AppConfig } from '@app/config';
import { ScheduledRunClaim } from '@app/database';
import { OpenAttemptSweeper } from '@app/resolution';

const HOUR_MS = 3600_000;

/**
 * Every worker ticks; the database lets one of them run each job per interval. Deliberately not Redis
 * repeatable jobs: the sweeper must keep running after Redis has lost everything.
 */
@Injectable()
export class ScheduledWork implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScheduledWork.name);
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly sweeper: OpenAttemptSweeper,
    private readonly janitor: IdempotencyRecordJanitor,
    private readonly runs: ScheduledRunClaim,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.every('open-attempt-sweeper', this.config.SWEEPER_INTERVAL_MS, () => this.sweeper.sweep());
    this.every('idempotency-record-janitor', HOUR_MS, () => this.janitor.purge());
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private every(name: string, intervalMs: number, work: () => Promise<unknown>): void {
    this.registry.addInterval(name, setInterval(() => this.tick(name, intervalMs, work), intervalMs));
  }

  /** One run at a time per process, and one per interval across processes. */
  private tick(name: string, intervalMs: number, work: () => Promise<unknown>): void {
    if (this.running.has(name)) return;
    const run = (async () => {
      if (await this.runs.tryStart(name, intervalMs)) await work();
    })()
      .catch((error: unknown) => this.logger.error({ err: error, job: name }, 'scheduled job failed'))
      .finally(() => this.running.delete(name));
    this.running.set(name, run);
  }
}
