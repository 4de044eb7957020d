import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { LedgerModule } from '@app/ledger';
import { PayoutSettlement } from './payout-settlement.hook.js';
import { PayoutOpener } from './payout-opener.service.js';
import { PayoutsService } from './payouts.service.js';
import { PixReturnRecorder } from './pix-return.recorder.js';
import { PayoutList } from './payout-list.query.js';

@Module({
  imports: [AttemptsModule, LedgerModule],
  // The settlement registers itself with the attempts: wherever payout attempts can end, import this module.
  providers: [PayoutOpener, PayoutsService, PayoutSettlement, PixReturnRecorder, PayoutList],
  exports: [PayoutsService, PixReturnRecorder, PayoutList],
})
export class PayoutsModule {}
