import { Module } from '@nestjs/common';
import { AttemptSettlementHooks } from './attempt-settlement.hooks.js';
import { AttemptOpener } from './attempt-opener.service.js';
import { AttemptSender } from './attempt-sender.service.js';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';
import { ProviderFactApplier } from './provider-fact.applier.js';
import { PreviousAttemptRecheck } from './previous-attempt.recheck.js';
import { FirstSendChecker } from './first-send.check.js';
import { ProviderFirstAttempt } from './provider-first-attempt.recorder.js';

/** Attempts: opening, sending, and the one guarded way to change an attempt's status. */
@Module({
  providers: [AttemptSettlementHooks, AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, PreviousAttemptRecheck, FirstSendChecker, ProviderFirstAttempt],
  exports: [AttemptSettlementHooks, AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, PreviousAttemptRecheck, ProviderFirstAttempt],
})
export class AttemptsModule {}
