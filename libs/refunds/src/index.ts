export { RefundsModule } from './refunds.module.js';
export { RefundsService } from './refunds.service.js';
export { RefundOpener, type NewRefund, type ProposalToExecute, type RefundIdempotency, type RefundOpening } from './refund-opener.service.js';
export { proposalRefundIdOf } from './rules/survivable-refund-ids.js';
export { toRefundView, type RefundView, type RefundAttemptView } from './refund.view.js';
export { refundSummariesOf, type RefundSummary } from './refund-summary.query.js';
export * from './rules/refund-status.js';
export * from './refunds.errors.js';
export { RefundList, REFUND_STATUSES, refundListFilters, refundListStatement, type RefundSummaryLine } from './refund-list.query.js';
