import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { ChargeAttemptOpener } from './charge-attempt.opener.js';
import { ChargeList } from './charge-list.query.js';
import { ChargesService } from './charges.service.js';
import { IdempotencyRecordJanitor } from './idempotency-record.janitor.js';
import { InboundIdempotencyService } from './inbound-idempotency.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [ChargeAttemptOpener, ChargeList, ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
  exports: [ChargeAttemptOpener, ChargeList, ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
})
export class ChargesModule {}
