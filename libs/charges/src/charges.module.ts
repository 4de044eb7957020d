import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { ChargeAttemptOpener } from './charge-attempt.opener.js';
import { ChargesService } from './charges.service.js';
import { IdempotencyRecordJanitor } from './idempotency-record.janitor.js';
import { InboundIdempotencyService } from './inbound-idempotency.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [ChargeAttemptOpener, ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
  exports: [ChargeAttemptOpener, ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
})
export class ChargesModule {}
