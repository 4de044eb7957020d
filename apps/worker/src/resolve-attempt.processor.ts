import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { RESOLUTION_CONCURRENCY, resolutionQueueFor, type AttemptJob } from '@app/queues';
import { UnknownAttemptResolver } from '@app/resolution';

/**
 * One provider lookup for one unknown attempt; Bull's limiter paces these across all workers. One
 * processor per provider queue, because each queue carries its provider's own query budget.
 */
@Processor(resolutionQueueFor('stripe'))
export class ResolveStripeAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: RESOLUTION_CONCURRENCY })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await this.resolver.resolve(job.data.attemptId);
  }
}

@Processor(resolutionQueueFor('asaas'))
export class ResolveAsaasAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: RESOLUTION_CONCURRENCY })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await this.resolver.resolve(job.data.attemptId);
  }
}

/** Pix payouts (Efí): lookups by idEnvio spend Efí's budget, not a card provider's. */
@Processor(resolutionQueueFor('efi'))
export class ResolveEfiAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: RESOLUTION_CONCURRENCY })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await this.resolver.resolve(job.data.attemptId);
  }
}
