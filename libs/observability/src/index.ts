export { logRequests } from './access-log.js';
export { LoggerModule, pinoOptions } from './logger.module.js';
export { ObservabilityModule } from './observability.module.js';
export { listenMetrics } from './metrics-listener.js';
export * from './metrics.js';
export { ScrapeTimeGauges, type ScrapeTimeGauge } from './scrape-time.gauges.js';
export { inJobSpan, inSpan, traceCarrier, type Span, type TraceCarrier } from './tracing/spans.js';
