/**
 * The review item store: open, append evidence, close and query items, plain functions over the caller's
 * EntityManager so each write commits with the fact that justifies it. It imports nothing but @app/database,
 * which is why attempts, webhooks and reconciliation may call it while libs/review's decisions depend on
 * attempts: no cycle. The only writer of review_items and review_audit (eslint and dependency-cruiser say so).
 */
export { openReviewItem } from './review-item.opener.js';
export { reaskAsSuccessAfterFailure } from './review-item.reason.js';
export { closeOpenReviewItem, closeGapReviewItem } from './review-item.closer.js';
export { openGapReviewItems } from './gap-review-item.opener.js';
export { hasOpenReviewItem, openReviewItemsOfCharge, type ChargeReviewItem } from './review-items.query.js';
