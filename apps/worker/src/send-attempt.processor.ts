import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { AttemptSender } from '@app/attempts';
import { inJobSpan } from '@app/observability';
import { SUBMIT_QUEUE, type AttemptJob } from '@app/queues';

/** A pending attempt whose backoff has passed: send it again with the same key and bytes. */
@Processor(SUBMIT_QUEUE)
export class SendAttemptProcessor {
  constructor(private readonly sender: AttemptSender) {}

  @Process()
  async handle(job: Job<AttemptJob>): Promise<void> {
    await inJobSpan('attempt.send_job', job.data, { 'charge_once.attempt_id': job.data.attemptId }, () => this.sender.send(job.data.attemptId, 'worker'));
  }
}
