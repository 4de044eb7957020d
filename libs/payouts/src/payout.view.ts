import type { AttemptEntity, PayoutEntity } from '@app/database';
import { deriveRefundStatus, type RefundStatus } from '@app/refunds';

/** The same statuses as a refund's, derived the same way from the attempts (money out has one lifecycle). */
export type PayoutStatus = RefundStatus;

export interface PayoutAttemptView {
  id: string;
  /** The Pix transfer id sent to the provider (Efí `idEnvio`): the attempt id as 32 hex characters. */
  transferId: string;
  provider: string;
  status: string;
  /** The provider's end-to-end id once known (the late transfer's, for an attempt failed before it executed). */
  endToEndId: string | null;
  /** When we learnt that the provider executed this attempt's transfer after we had failed it (its money debited late). */
  lateExecutedAt: string | null;
  httpAttempts: number;
  lastError: object | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

/** Money the payee's bank sent back on this payout's transfer, credited to the account again. */
export interface PayoutReturnView {
  rtrId: string;
  endToEndId: string;
  amountCents: number;
  returnedAt: string;
  recordedAt: string;
}

export interface PayoutView {
  id: string;
  accountId: string;
  amountCents: number;
  currency: string;
  pixKeyType: string;
  description: string | null;
  status: PayoutStatus;
  /** What came back of it (sum of `returns`): the payout stays paid, and this much is available again. */
  returnedCents: number;
  returns: PayoutReturnView[];
  createdAt: string;
  attempts: PayoutAttemptView[];
}

export function toPayoutView(
  payout: PayoutEntity,
  attempts: AttemptEntity[],
  hasOpenReviewItem: boolean,
  transferIdFor: (attemptId: string) => string,
  returns: PayoutReturnView[] = [],
): PayoutView {
  return {
    id: payout.id,
    accountId: payout.accountId,
    amountCents: payout.amountCents,
    currency: payout.currency.trim(),
    pixKeyType: payout.pixKeyType,
    description: payout.description,
    // A transfer executed after we failed its attempt is money that left: the payout was paid, by that attempt.
    status: deriveRefundStatus(attempts.map((a) => ({ status: a.lateExecutedAt ? 'succeeded' : a.status })), hasOpenReviewItem),
    returnedCents: returns.reduce((sum, r) => sum + r.amountCents, 0),
    returns,
    createdAt: payout.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      id: a.id,
      transferId: transferIdFor(a.id),
      provider: a.provider,
      status: a.status,
      endToEndId: a.providerRef ?? a.lateExecutionEndToEndId,
      lateExecutedAt: a.lateExecutedAt ? a.lateExecutedAt.toISOString() : null,
      httpAttempts: a.httpAttempts,
      lastError: a.lastError,
      createdAt: a.createdAt.toISOString(),
      resolvedAt: a.resolvedAt ? a.resolvedAt.toISOString() : null,
      resolvedBy: a.resolvedBy,
    })),
  };
}
