import { Module } from '@nestjs/common';
import { AttemptOpener } from './attempt-opener.service.js';
import { AttemptSender } from './attempt-sender.service.js';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';

/** Attempts: opening, sending, and the one guarded way to change an attempt's status. */
@Module({
  providers: [AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder],
  exports: [AttemptOpener, AttemptSender, AttemptTransitionWriter, ProviderCallRecorder],
})
export class AttemptsModule {}
