export { startTracing } from './start-tracing.js';
