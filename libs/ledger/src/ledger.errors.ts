import { DomainError } from '@app/common';

export class AccountNotFoundError extends DomainError {
  readonly code = 'account_not_found';
  readonly kind = 'not_found';
  constructor(accountId: string) {
    super(`no account ${accountId}`, { accountId });
  }
}

/** A merchant token asked for an account another token owns. */
export class OwnerTokenUnknownError extends DomainError {
  readonly code = 'owner_token_unknown';
  readonly kind = 'unprocessable';
  constructor(name: string) {
    super(`ownerTokenName: no active merchant token is named "${name}"`, { ownerTokenName: name });
  }
}

/**
 * 422: the code names no ISO 4217 currency of money (`xxx`, `xts`, the metals, three letters ISO never assigned):
 * an account holds money, and no provider moves these. Any ISO money is taken: Pix payouts refuse non-brl ones
 * at payout time (`payout_currency_unsupported`), since the ledger itself is not Pix's.
 */
export class AccountCurrencyNotSupportedError extends DomainError {
  readonly code = 'account_currency_not_supported';
  readonly kind = 'unprocessable';
  constructor(currency: string) {
    super(`currency: "${currency}" is not an ISO 4217 currency of money; an account holds money`, { field: 'currency', currency, reason: 'not_iso_money' });
  }
}

/** A movement the account's balance could not hold exactly (past 2^53 - 1 minor units): refused, never rounded. */
export class AmountTooLargeError extends DomainError {
  readonly code = 'amount_too_large';
  readonly kind = 'unprocessable';
  constructor(accountId: string, requestedCents: number, currency: string) {
    super(`amountCents: ${requestedCents} ${currency} cents would take account ${accountId} past the largest balance it can hold (${Number.MAX_SAFE_INTEGER})`, {
      field: 'amountCents',
      accountId,
      requestedCents,
    });
  }
}

/** 422: the reservation would take the available balance below zero. Names what is available. */
export class InsufficientBalanceError extends DomainError {
  readonly code = 'insufficient_balance';
  readonly kind = 'unprocessable';
  constructor(accountId: string, availableCents: number, requestedCents: number, currency: string) {
    super(`account ${accountId} has ${availableCents} ${currency} cents available; ${requestedCents} requested`, {
      accountId,
      availableCents,
      requestedCents,
      currency,
    });
  }
}

export class LedgerReferenceReusedError extends DomainError {
  readonly code = 'ledger_reference_reused';
  readonly kind = 'unprocessable';
  constructor(accountId: string, kind: string, reference: string) {
    super(`account ${accountId} already has a ${kind} with reference "${reference}" for another amount`, { accountId, kind, reference });
  }
}

export class ReservationNotFoundError extends DomainError {
  readonly code = 'reservation_not_found';
  readonly kind = 'conflict';
  constructor(accountId: string, reference: string) {
    super(`account ${accountId} holds no reservation with reference "${reference}"`, { accountId, reference });
  }
}

/** A reservation is released (failed payout) or debited (succeeded payout), never both. */
export class ReservationSettledError extends DomainError {
  readonly code = 'reservation_already_settled';
  readonly kind = 'conflict';
  constructor(accountId: string, reference: string, attempted: string) {
    super(`the reservation "${reference}" of account ${accountId} was already settled the other way; ${attempted} refused`, { accountId, reference });
  }
}

export class CreditRequestNotFoundError extends DomainError {
  readonly code = 'credit_request_not_found';
  readonly kind = 'not_found';
  constructor(requestId: string) {
    super(`no credit request ${requestId} on this account`, { requestId });
  }
}

export class CreditRequestConfirmedError extends DomainError {
  readonly code = 'credit_request_confirmed';
  readonly kind = 'conflict';
  constructor(requestId: string, confirmedBy: string) {
    super(`credit request ${requestId} was already confirmed by ${confirmedBy}`, { requestId, confirmedBy });
  }
}

/** Four eyes by person: the admin who asked for a large credit never confirms it. */
export class CreditSelfConfirmationError extends DomainError {
  readonly code = 'credit_self_confirmation';
  readonly kind = 'forbidden';
  constructor(requestId: string, person: string) {
    super(`credit request ${requestId} was asked for by ${person}: another admin must confirm it`, { requestId, requestedBy: person });
  }
}

export class PayoutRequestNotFoundError extends DomainError {
  readonly code = 'payout_request_not_found';
  readonly kind = 'not_found';
  constructor(requestId: string) {
    super(`no payout request ${requestId} on this account`, { requestId });
  }
}

export class PayoutRequestConfirmedError extends DomainError {
  readonly code = 'payout_request_confirmed';
  readonly kind = 'conflict';
  constructor(requestId: string, confirmedBy: string) {
    super(`payout request ${requestId} was already confirmed by ${confirmedBy}`, { requestId, confirmedBy });
  }
}

/** Four eyes by person: the admin who asked for a large payout from a merchant's account never confirms it. */
export class PayoutSelfConfirmationError extends DomainError {
  readonly code = 'payout_self_confirmation';
  readonly kind = 'forbidden';
  constructor(requestId: string, person: string) {
    super(`payout request ${requestId} was asked for by ${person}: another admin must confirm it`, { requestId, requestedBy: person });
  }
}

/** A late debit is money that left after its reservation went back: one never released was never available. */
export class ReservationNotReleasedError extends DomainError {
  readonly code = 'reservation_not_released';
  readonly kind = 'conflict';
  constructor(accountId: string, reference: string) {
    super(`account ${accountId} released no reservation with reference "${reference}": nothing to debit late`, { accountId, reference });
  }
}
