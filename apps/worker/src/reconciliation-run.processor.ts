import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { RECONCILIATION_RUN_QUEUE, type ReconciliationRunJob } from '@app/queues';
import { ReconciliationRunsService } from '@app/reconciliation';

/**
 * An on-demand reconciliation run the api recorded: claimed and executed here, under the run's lease. Two at a
 * time per worker, so one large day does not hold back another day's run behind it.
 */
@Processor(RECONCILIATION_RUN_QUEUE)
export class ReconciliationRunProcessor {
  constructor(private readonly runs: ReconciliationRunsService) {}

  @Process({ concurrency: 2 })
  async handle(job: Job<ReconciliationRunJob>): Promise<void> {
    await this.runs.runQueued(job.data.runId);
  }
}
