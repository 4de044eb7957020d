export { PayoutsModule } from './payouts.module.js';
export { PayoutsService, type PayoutRequestView } from './payouts.service.js';
export { PayoutOpener, type NewPayout } from './payout-opener.service.js';
export { toPayoutView, type PayoutView, type PayoutAttemptView, type PayoutReturnView, type PayoutStatus } from './payout.view.js';
export * from './payouts.errors.js';
export * from './rules/pix-key.js';
export { PixReturnRecorder, type PixReturnFact, type PixReturnOutcome } from './pix-return.recorder.js';
export { PayoutList, PAYOUT_STATUSES, payoutListFilters, payoutListStatement, type PayoutSummary } from './payout-list.query.js';
