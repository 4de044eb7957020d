import { CreateChargesAndAttempts1764680000000 } from './1764680000000-CreateChargesAndAttempts.js';
import { CreateApiTokensAndIdempotency1764680001000 } from './1764680001000-CreateApiTokensAndIdempotency.js';
import { CreateReviewItems1764680002000 } from './1764680002000-CreateReviewItems.js';
import { CreateScheduledRuns1764680003000 } from './1764680003000-CreateScheduledRuns.js';
import { CreateWebhookEvents1764680004000 } from './1764680004000-CreateWebhookEvents.js';
import { LateTruths1764680010000 } from './1764680010000-LateTruths.js';
import { CreateLedger1764680080000 } from './1764680080000-CreateLedger.js';
import { ReviewReopensOnNewEvidence1764680029000 } from './1764680029000-ReviewReopensOnNewEvidence.js';
import { ReviewQueue1764680020000 } from './1764680020000-ReviewQueue.js';
import { AddChargeBillingTypeAndDueDate1764680060000 } from './1764680060000-AddChargeBillingTypeAndDueDate.js';
import { Refunds1764680070000 } from './1764680070000-Refunds.js';
import { RefundCapIndex1764680280000 } from './1764680280000-RefundCapIndex.js';
import { FinanceLookupIndexes1764680270000 } from './1764680270000-FinanceLookupIndexes.js';
import { Payouts1764680100000 } from './1764680100000-Payouts.js';
import { CreateReconciliation1764680030000 } from './1764680030000-CreateReconciliation.js';
import { RefundProposalExecution1764680090000 } from './1764680090000-RefundProposalExecution.js';
import { ReviewRefundProposals1764680160000 } from './1764680160000-ReviewRefundProposals.js';
import { OpenClaimedChargeAttempt1764680150000 } from './1764680150000-OpenClaimedChargeAttempt.js';
import { PayoutDivergences1764680170000 } from './1764680170000-PayoutDivergences.js';
import { ChargeCapturedOnce1764680180000 } from './1764680180000-ChargeCapturedOnce.js';
import { MerchantsAndPeople1764680190000 } from './1764680190000-MerchantsAndPeople.js';
import { AwaitingPayment1764680260000 } from './1764680260000-AwaitingPayment.js';
import { ReconciliationCatchUp1764680200000 } from './1764680200000-ReconciliationCatchUp.js';
import { CreditConfirmations1764680210000 } from './1764680210000-CreditConfirmations.js';
import { RefundProposalFourEyes1764680220000 } from './1764680220000-RefundProposalFourEyes.js';
import { PayoutLateDebits1764680250000 } from './1764680250000-PayoutLateDebits.js';
import { ReconciliationNights1764680230000 } from './1764680230000-ReconciliationNights.js';
import { RefundDivergences1764680240000 } from './1764680240000-RefundDivergences.js';
import { DuplicateTransferKind1764680290000 } from './1764680290000-DuplicateTransferKind.js';
import { RenameChargeAttemptsToAttempts1764680300000 } from './1764680300000-RenameChargeAttemptsToAttempts.js';
import { AttemptProviderRef1764680310000 } from './1764680310000-AttemptProviderRef.js';
import { RefundCancelledKind1764680320000 } from './1764680320000-RefundCancelledKind.js';
import { MerchantEvents1764680330000 } from './1764680330000-MerchantEvents.js';
import { AttemptStateTable1764680340000 } from './1764680340000-AttemptStateTable.js';
import { LeanerDeliveryIndexes1764680350000 } from './1764680350000-LeanerDeliveryIndexes.js';
import { PlannedEventStatus1764680352000 } from './1764680352000-PlannedEventStatus.js';
import { LeanerEventIndexes1764680354000 } from './1764680354000-LeanerEventIndexes.js';
import { RedeliverInFlight1764680356000 } from './1764680356000-RedeliverInFlight.js';
import { PixReturns1764680358000 } from './1764680358000-PixReturns.js';
import { ProviderFirstAttempts1764680379000 } from './1764680379000-ProviderFirstAttempts.js';
import { LateRefundAmount1764680392000 } from './1764680392000-LateRefundAmount.js';
import { LateRefundPublicStatus1764680393000 } from './1764680393000-LateRefundPublicStatus.js';
import { LateRefundAmountInReview1764680395000 } from './1764680395000-LateRefundAmountInReview.js';
import { FirstAttemptListStatus1764680397000 } from './1764680397000-FirstAttemptListStatus.js';
import { LateRefundStatusBackfill1764680398000 } from './1764680398000-LateRefundStatusBackfill.js';
import { MerchantListStatuses1764680390000 } from './1764680390000-MerchantListStatuses.js';
import { ChargeCustomerIp1764680360000 } from './1764680360000-ChargeCustomerIp.js';
import { RefundReversalMovements1764680366000 } from './1764680366000-RefundReversalMovements.js';
import { DisputeStatusAt1764680364000 } from './1764680364000-DisputeStatusAt.js';
import { MoneyTakenBackKinds1764680362000 } from './1764680362000-MoneyTakenBackKinds.js';
import { LateRefundSuccess1764680377000 } from './1764680377000-LateRefundSuccess.js';
import { PayoutFourEyes1764680378000 } from './1764680378000-PayoutFourEyes.js';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the same list loads from the TypeScript
 * sources under Vitest and from `dist/` in production. A generated migration is added here by hand.
 */
export const MIGRATIONS = [
  CreateChargesAndAttempts1764680000000,
  CreateApiTokensAndIdempotency1764680001000,
  CreateReviewItems1764680002000,
  CreateScheduledRuns1764680003000,
  CreateWebhookEvents1764680004000,
  LateTruths1764680010000,
  ReviewQueue1764680020000,
  ReviewReopensOnNewEvidence1764680029000,
  AddChargeBillingTypeAndDueDate1764680060000,
  Refunds1764680070000,
  CreateReconciliation1764680030000,
  CreateLedger1764680080000,
  RefundProposalExecution1764680090000,
  OpenClaimedChargeAttempt1764680150000,
  Payouts1764680100000,
  ReviewRefundProposals1764680160000,
  PayoutDivergences1764680170000,
  ChargeCapturedOnce1764680180000,
  MerchantsAndPeople1764680190000,
  ReconciliationCatchUp1764680200000,
  CreditConfirmations1764680210000,
  RefundProposalFourEyes1764680220000,
  ReconciliationNights1764680230000,
  RefundDivergences1764680240000,
  PayoutLateDebits1764680250000,
  AwaitingPayment1764680260000,
  FinanceLookupIndexes1764680270000,
  RefundCapIndex1764680280000,
  DuplicateTransferKind1764680290000,
  RenameChargeAttemptsToAttempts1764680300000,
  AttemptProviderRef1764680310000,
  RefundCancelledKind1764680320000,
  MerchantEvents1764680330000,
  AttemptStateTable1764680340000,
  LeanerDeliveryIndexes1764680350000,
  PlannedEventStatus1764680352000,
  LeanerEventIndexes1764680354000,
  RedeliverInFlight1764680356000,
  PixReturns1764680358000,
  ChargeCustomerIp1764680360000,
  MoneyTakenBackKinds1764680362000,
  DisputeStatusAt1764680364000,
  RefundReversalMovements1764680366000,
  LateRefundSuccess1764680377000,
  PayoutFourEyes1764680378000,
  ProviderFirstAttempts1764680379000,
  MerchantListStatuses1764680390000,
  LateRefundAmount1764680392000,
  LateRefundPublicStatus1764680393000,
  LateRefundAmountInReview1764680395000,
  FirstAttemptListStatus1764680397000,
  LateRefundStatusBackfill1764680398000,
];
