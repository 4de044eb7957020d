import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { ReviewModule } from '@app/review';
import { OpenAttemptSweeper } from './open-attempt.sweeper.js';
import { UnknownAttemptResolver } from './unknown-attempt.resolver.js';

@Module({
  imports: [AttemptsModule, ReviewModule],
  providers: [UnknownAttemptResolver, OpenAttemptSweeper],
  exports: [UnknownAttemptResolver, OpenAttemptSweeper],
})
export class ResolutionModule {}
