import { ApiTokenEntity } from './api-token.entity.js';
import { MerchantEntity } from './merchant.entity.js';
import { AttemptTransitionEntity } from './attempt-transition.entity.js';
import { AttemptEntity } from './attempt.entity.js';
import { ChargeEntity } from './charge.entity.js';
import { IdempotencyRecordEntity } from './idempotency-record.entity.js';
import { LedgerAccountEntity } from './ledger-account.entity.js';
import { LedgerCreditRequestEntity } from './ledger-credit-request.entity.js';
import { LedgerEntryEntity } from './ledger-entry.entity.js';
import { ProviderCallEntity } from './provider-call.entity.js';
import { ReviewAuditEntity } from './review-audit.entity.js';
import { RefundEntity } from './refund.entity.js';
import { PayoutEntity } from './payout.entity.js';
import { ReviewItemEntity } from './review-item.entity.js';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { ReconciliationRunEntity } from './reconciliation-run.entity.js';
import { ReconciliationDivergenceEntity } from './reconciliation-divergence.entity.js';
import { ReconciliationRunDivergenceEntity } from './reconciliation-run-divergence.entity.js';
import { RefundProposalEntity } from './refund-proposal.entity.js';
import { ReconciliationMoneyMovementEntity } from './reconciliation-money-movement.entity.js';

export const ENTITIES = [
  ApiTokenEntity,
  MerchantEntity,
  AttemptTransitionEntity,
  AttemptEntity,
  ChargeEntity,
  IdempotencyRecordEntity,
  LedgerAccountEntity,
  LedgerCreditRequestEntity,
  LedgerEntryEntity,
  ProviderCallEntity,
  ReviewAuditEntity,
  RefundEntity,
  ReviewItemEntity,
  WebhookEventEntity,
  ReconciliationRunEntity,
  ReconciliationDivergenceEntity,
  ReconciliationRunDivergenceEntity,
  RefundProposalEntity,
  ReconciliationMoneyMovementEntity,
  PayoutEntity,
];
