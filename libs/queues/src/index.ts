export { QueuesModule, smoothLimiter } from './queues.module.js';
export { AttemptJobs, type AttemptJob } from './attempt-jobs.js';
export * from './queue-names.js';
