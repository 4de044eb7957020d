export { QueuesModule } from './queues.module.js';
export * from './queue-names.js';
