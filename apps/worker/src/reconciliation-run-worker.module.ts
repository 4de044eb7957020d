import { Module } from '@nestjs/common';
import { ReconciliationModule } from '@app/reconciliation';
import { ReconciliationRunProcessor } from './reconciliation-run.processor.js';

/** The worker's on-demand reconciliation runs alone: what an api needs beside it for `POST /reconciliation/runs` to finish. */
@Module({
  imports: [ReconciliationModule],
  providers: [ReconciliationRunProcessor],
})
export class ReconciliationRunWorkerModule {}
