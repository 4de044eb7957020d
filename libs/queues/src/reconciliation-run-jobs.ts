import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { RECONCILIATION_RUN_QUEUE } from './queue-names.js';

export interface ReconciliationRunJob {
  runId: string;
}

/**
 * Hands an on-demand run the api has recorded to a worker. The job id is the run id, so queueing a run twice
 * while its job lives queues it once; the run row is the truth, and a job Redis forgets is made up for by the
 * worker's takeover of runs whose claim deadline passed.
 */
@Injectable()
export class ReconciliationRunJobs {
  constructor(@InjectQueue(RECONCILIATION_RUN_QUEUE) private readonly queue: Queue<ReconciliationRunJob>) {}

  async schedule(runId: string): Promise<void> {
    await this.queue.add({ runId }, { jobId: runId, attempts: 1, removeOnComplete: true, removeOnFail: true });
  }
}
