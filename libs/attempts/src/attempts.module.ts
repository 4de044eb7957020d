import { Module } from '@nestjs/common';
import { LedgerModule } from '@app/ledger';
import { AttemptOpener } from './attempt-opener.service.js';
import { AttemptSender } from './attempt-sender.service.js';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';
import { ProviderFactApplier } from './provider-fact.applier.js';
import { PreviousAttemptRecheck } from './previous-attempt.recheck.js';
import { AttemptTrendsQuery } from './attempt-trends.query.js';

/** Attempts: opening, sending, and the one guarded way to change an attempt's status. */
@Module({
  // The transition writer settles a payout's reservation in the transaction that ends its attempt.
  imports: [LedgerModule],
  providers: [AttemptTrendsQuery, AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, PreviousAttemptRecheck],
  exports: [AttemptTrendsQuery, AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, PreviousAttemptRecheck],
})
export class AttemptsModule {}
