import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { AwaitingPaymentHandler } from './awaiting-payment.handler.js';
import { OpenAttemptSweeper } from './open-attempt.sweeper.js';
import { UnknownAttemptResolver } from './unknown-attempt.resolver.js';

@Module({
  imports: [AttemptsModule],
  providers: [UnknownAttemptResolver, OpenAttemptSweeper, AwaitingPaymentHandler],
  exports: [UnknownAttemptResolver, OpenAttemptSweeper],
})
export class ResolutionModule {}
