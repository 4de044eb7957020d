import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { ChargesService } from './charges.service.js';
import { IdempotencyRecordJanitor } from './idempotency-record.janitor.js';
import { InboundIdempotencyService } from './inbound-idempotency.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
  exports: [ChargesService, InboundIdempotencyService, IdempotencyRecordJanitor],
})
export class ChargesModule {}
