import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { PayoutsModule } from '@app/payouts';
import { RefundsModule } from '@app/refunds';
import { ReconciliationGauges } from './reconciliation.gauges.js';
import { ReconciliationCalendarQuery } from './reconciliation-calendar.query.js';
import { RefundProposalsExport } from './refund-proposals.export.js';
import { ReconciliationQueries } from './reconciliation-queries.service.js';
import { ReconciliationRunExecutor } from './reconciliation-run.executor.js';
import { ReconciliationRunsService } from './reconciliation-runs.service.js';
import { ProposalProviderCheck } from './proposal-provider.check.js';
import { RefundProposalsService } from './refund-proposals.service.js';
import { UnknownAttemptSettler } from './unknown-attempt.settler.js';
import { PayoutReturnsStep } from './payout-returns.step.js';
import { ReconciliationClock, SystemReconciliationClock } from './reconciliation.clock.js';

/** The nightly comparison with the provider's statement: runs, divergences, settling, refund proposals. */
@Module({
  imports: [AttemptsModule, RefundsModule, PayoutsModule],
  providers: [{ provide: ReconciliationClock, useClass: SystemReconciliationClock }, ReconciliationRunsService, ReconciliationRunExecutor, UnknownAttemptSettler, PayoutReturnsStep, ReconciliationQueries, RefundProposalsService, ProposalProviderCheck, ReconciliationGauges, ReconciliationCalendarQuery, RefundProposalsExport],
  exports: [ReconciliationClock, ReconciliationRunsService, ReconciliationQueries, RefundProposalsService, ReconciliationCalendarQuery, RefundProposalsExport],
})
export class ReconciliationModule {}
