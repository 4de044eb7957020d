import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { ChargesService } from './charges.service.js';
import { InboundIdempotencyService } from './inbound-idempotency.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [ChargesService, InboundIdempotencyService],
  exports: [ChargesService, InboundIdempotencyService],
})
export class ChargesModule {}
