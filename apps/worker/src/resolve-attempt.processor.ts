import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { RESOLUTION_QUEUE, type AttemptJob } from '@app/queues';
import { UnknownAttemptResolver } from '@app/resolution';

/** One provider lookup for one unknown attempt; Bull's limiter paces these across all workers. */
@Processor(RESOLUTION_QUEUE)
export class ResolveAttemptProcessor {
  constructor(private readonly resolver: UnknownAttemptResolver) {}

  @Process({ concurrency: 16 })
  async handle(job: Job<AttemptJob>): Promise<void> {
    await this.resolver.resolve(job.data.attemptId);
  }
}
