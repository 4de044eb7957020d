export { QueuesModule } from './queues.module.js';
export { ProviderQueryPacer } from './provider-query.pacer.js';
export { busiestWindow } from './rules/query-pacing.js';
export { AttemptJobs, type AttemptJob } from './attempt-jobs.js';
export { ReconciliationRunJobs, type ReconciliationRunJob } from './reconciliation-run-jobs.js';
export * from './queue-names.js';
export { createRedisClient, type RedisClient, type RedisClientOptions } from './redis-connection.factory.js';
