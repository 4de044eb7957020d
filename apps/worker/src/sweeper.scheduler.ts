import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '@app/config';
import { ScheduledRunGuard } from '@app/database';
import { OpenAttemptSweeper } from '@app/resolution';

/**
 * Every worker ticks; the database lets one of them sweep per interval. Deliberately not a Redis
 * repeatable job: the sweeper must keep running after Redis has lost everything.
 */
@Injectable()
export class SweeperScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SweeperScheduler.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly sweeper: OpenAttemptSweeper,
    private readonly guard: ScheduledRunGuard,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.addInterval('open-attempt-sweeper', setInterval(() => this.tick(), this.config.SWEEPER_INTERVAL_MS));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.runOnce()
      .catch((error: unknown) => this.logger.error({ err: error }, 'sweep failed'))
      .finally(() => (this.running = null));
  }

  private async runOnce(): Promise<void> {
    if (await this.guard.tryStart('open-attempt-sweeper', this.config.SWEEPER_INTERVAL_MS)) await this.sweeper.sweep();
  }
}
