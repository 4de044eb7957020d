import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { RefundOpener } from './refund-opener.service.js';
import { RefundsService } from './refunds.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [RefundOpener, RefundsService],
  exports: [RefundOpener, RefundsService],
})
export class RefundsModule {}
