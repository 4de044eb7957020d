import { DomainError } from '@app/common';

export class ChargeNotFoundError extends DomainError {
  readonly code = 'charge_not_found';
  readonly kind = 'not_found';
  constructor(chargeId: string) {
    super(`charge ${chargeId} does not exist`, { chargeId });
  }
}

export class ChargeExistsError extends DomainError {
  readonly code = 'charge_exists';
  readonly kind = 'conflict';
  constructor(orderId: string, chargeId: string) {
    super(`order ${orderId} already has charge ${chargeId}`, { orderId, chargeId });
  }
}

export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';
  readonly kind = 'unprocessable';
  constructor() {
    super('this Idempotency-Key was already used with a different request body');
  }
}

export class IdempotencyKeyInFlightError extends DomainError {
  readonly code = 'idempotency_key_in_flight';
  readonly kind = 'conflict';
  constructor() {
    super('a request with this Idempotency-Key is still being processed; retry later');
  }
}

/** A charge field the chosen provider cannot take (Asaas: a currency other than brl, no billingType). */
export class InvalidChargeFieldError extends DomainError {
  readonly code = 'invalid_charge_field';
  readonly kind = 'invalid_input';
  constructor(provider: string, field: string, message: string) {
    super(message, { provider, field });
  }
}

/** Charges, refunds of them and accounts belong to a merchant: this needs a merchant token. */
export class MerchantRequiredError extends DomainError {
  readonly code = 'merchant_required';
  readonly kind = 'forbidden';
  constructor(what: string) {
    super(`${what} needs a merchant token: a charge belongs to the merchant whose token created it`);
  }
}

/** 422: the provider takes no charge in this currency (or the code names no money at all: `xxx`, `xau`). */
export class CurrencyNotSupportedError extends DomainError {
  readonly code = 'currency_not_supported';
  readonly kind = 'unprocessable';
  constructor(provider: string, currency: string, reason: 'not_iso_money' | 'not_taken_by_provider') {
    super(
      reason === 'not_iso_money' ? `currency "${currency}" is not an ISO 4217 currency of money; ${provider} cannot charge in it` : `provider ${provider} does not take charges in ${currency}`,
      { provider, currency, reason },
    );
  }
}

/** 422: below the smallest amount the provider charges in this currency (Stripe: usd 50, jpy 50, ...). */
export class AmountBelowMinimumError extends DomainError {
  readonly code = 'amount_below_minimum';
  readonly kind = 'unprocessable';
  constructor(provider: string, currency: string, minimumAmount: number) {
    super(`provider ${provider} charges at least ${minimumAmount} ${currency} minor units`, { provider, currency, minimumAmount });
  }
}

/** 422: an amount the provider cannot carry in this currency (Stripe's three-decimal currencies: the last digit must be 0). */
export class AmountNotRepresentableError extends DomainError {
  readonly code = 'amount_not_representable';
  readonly kind = 'unprocessable';
  constructor(provider: string, currency: string, multipleOf: number) {
    super(`provider ${provider} takes ${currency} amounts in multiples of ${multipleOf} minor units`, { provider, currency, multipleOf });
  }
}
