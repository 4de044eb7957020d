export { ChargesModule } from './charges.module.js';
export { ChargesService, type NewCharge } from './charges.service.js';
export { ChargeAttemptOpener, type OpenedFirstSend } from './charge-attempt.opener.js';
export { InboundIdempotencyService, hashRequest } from './inbound-idempotency.service.js';
export { type ChargeView, type AttemptView, type CaptureView, type ChargeRefundsReader, type ChargeRefundSummary } from './charge.view.js';
export { type ChargeStatus, CHARGE_STATUSES, deriveChargeStatus } from './rules/charge-status.js';
export * from './charges.errors.js';
export { IdempotencyRecordJanitor } from './idempotency-record.janitor.js';
export { ChargeList, chargeListFilters, chargeListStatement, type ChargeListFilters, type ChargeSummary } from './charge-list.query.js';
