export { startTracing } from './start-tracing.js';
// The spans without the rest of observability: libs/queues needs the job's trace context, and observability's
// gauges read the queues, so importing the whole library from there would be a cycle.
export { traceCarrier, type TraceCarrier } from './spans.js';
