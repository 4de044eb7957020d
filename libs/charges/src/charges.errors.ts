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
