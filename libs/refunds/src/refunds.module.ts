import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { RefundOpener } from './refund-opener.service.js';
import { RefundsService } from './refunds.service.js';
import { RefundList } from './refund-list.query.js';

@Module({
  imports: [AttemptsModule],
  providers: [RefundOpener, RefundsService, RefundList],
  exports: [RefundOpener, RefundsService, RefundList],
})
export class RefundsModule {}
