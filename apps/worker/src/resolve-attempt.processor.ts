import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { resolutionQueueFor, type AttemptJob } from '@app/queues';
import { inJobSpan } from '@app/observability';
import { UnknownAttemptResolver } from '@app/resolution';

/**
 * One provider lookup for one unknown attempt; Bull's limiter paces these across all workers. One
 * processor per provider queue, because each queue carries its provider's own query budget.
 */
@Processor(resolutionQueueFor('stripe'))
export class ResolveStripeAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: 16 })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await resolveInJobSpan(this.resolver, job);
  }
}

@Processor(resolutionQueueFor('asaas'))
export class ResolveAsaasAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: 16 })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await resolveInJobSpan(this.resolver, job);
  }
}

/** Pix payouts (Efí): lookups by idEnvio spend Efí's budget, not a card provider's. */
@Processor(resolutionQueueFor('efi'))
export class ResolveEfiAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: 16 })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await resolveInJobSpan(this.resolver, job);
  }
}

/** The job's span links to the trace that queued it (the submit that left the attempt unknown, say). */
function resolveInJobSpan(resolver: UnknownAttemptResolver, job: Job<AttemptJob>): Promise<unknown> {
  return inJobSpan('attempt.resolution_job', job.data, { 'charge_once.attempt_id': job.data.attemptId }, () => resolver.resolve(job.data.attemptId));
}
