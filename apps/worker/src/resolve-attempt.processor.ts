import { Process, Processor } from '@nestjs/bull';
import type { Type } from '@nestjs/common';
import type { Job } from 'bull';
import { RESOLUTION_CONCURRENCY, resolutionQueueFor, type AttemptJob } from '@app/queues';
import { inJobSpan } from '@app/observability';
import { UnknownAttemptResolver } from '@app/resolution';

/**
 * The processor of one provider's resolution queue: one provider lookup for one unknown attempt, paced by that
 * queue's limiter across all workers. Bull's `@Processor(name)` binds a class to one queue, so the worker makes one
 * class per registered provider (PROVIDERS) from this one definition rather than a copy each.
 */
export function resolveAttemptProcessorFor(provider: string): Type {
  @Processor(resolutionQueueFor(provider))
  class ResolveAttemptProcessor {
    constructor(private readonly resolver: UnknownAttemptResolver) {}

    @Process({ concurrency: RESOLUTION_CONCURRENCY })
    async handle(job: Job<AttemptJob>): Promise<void> {
      await resolveInJobSpan(this.resolver, job);
    }
  }
  // Named per provider: Nest names providers by class in its logs and errors.
  Object.defineProperty(ResolveAttemptProcessor, 'name', { value: `Resolve${provider[0].toUpperCase()}${provider.slice(1)}AttemptProcessor` });
  return ResolveAttemptProcessor;
}

/** The job's span links to the trace that queued it (the submit that left the attempt unknown, say). */
function resolveInJobSpan(resolver: UnknownAttemptResolver, job: Job<AttemptJob>): Promise<unknown> {
  return inJobSpan('attempt.resolution_job', job.data, { 'charge_once.attempt_id': job.data.attemptId }, () => resolver.resolve(job.data.attemptId));
}
