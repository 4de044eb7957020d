export { QueuesModule } from './queues.module.js';
export { smoothLimiter } from './rules/smooth-limiter.js';
export { AttemptJobs, type AttemptJob } from './attempt-jobs.js';
export { ReconciliationRunJobs, type ReconciliationRunJob } from './reconciliation-run-jobs.js';
export * from './queue-names.js';
