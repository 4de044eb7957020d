import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { LedgerModule } from '@app/ledger';
import { PayoutOpener } from './payout-opener.service.js';
import { PayoutsService } from './payouts.service.js';

@Module({
  imports: [AttemptsModule, LedgerModule],
  providers: [PayoutOpener, PayoutsService],
  exports: [PayoutsService],
})
export class PayoutsModule {}
