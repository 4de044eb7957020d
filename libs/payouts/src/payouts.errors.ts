import { DomainError } from '@app/common';

export class PayoutNotFoundError extends DomainError {
  readonly code = 'payout_not_found';
  readonly kind = 'not_found';
  constructor(payoutId: string) {
    super(`no payout ${payoutId}`, { payoutId });
  }
}

/** 400: the Pix key does not fit its declared type; nothing is reserved or sent. */
export class InvalidPixKeyError extends DomainError {
  readonly code = 'invalid_pix_key';
  readonly kind = 'invalid_input';
  constructor(message: string) {
    super(message, { field: 'pixKey' });
  }
}

/** 422: Pix moves reais only; an account in another currency cannot pay out by Pix. */
export class PayoutCurrencyUnsupportedError extends DomainError {
  readonly code = 'payout_currency_unsupported';
  readonly kind = 'unprocessable';
  constructor(accountId: string, currency: string, provider: string) {
    super(`account ${accountId} holds ${currency}; ${provider} Pix payouts move brl only`, { accountId, currency, provider });
  }
}

/** 422: a Pix left after this account's payout was released and took more than it held; credits repay it first. */
export class AccountOwesError extends DomainError {
  readonly code = 'account_owes';
  readonly kind = 'unprocessable';
  constructor(accountId: string, owedCents: number, currency: string) {
    super(`account ${accountId} owes ${owedCents} ${currency} cents; no payout until a credit repays it`, { accountId, owedCents, currency });
  }
}
