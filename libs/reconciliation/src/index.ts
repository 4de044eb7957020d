export { ReconciliationModule } from './reconciliation.module.js';
export { ReconciliationRunsService, type RunRequest } from './reconciliation-runs.service.js';
export { ReconciliationQueries, type DivergenceFilter } from './reconciliation-queries.service.js';
export { RefundProposalsService } from './refund-proposals.service.js';
export { closeOpenReviewItem } from './review-item.closer.js';
export type { DivergenceView, RefundProposalView, RunView } from './reconciliation.views.js';
export * from './reconciliation.errors.js';
export * from './rules/reconciliation-day.js';
export * from './rules/divergence-kinds.js';
