import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** The instrumentation's own default list (cloud signatures and keys), plus ours. */
const REDACTED_QUERY_PARAMS = ['hmac', 'sig', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token'];

/** Scrapes and probes: every few seconds, nothing to follow. */
const UNTRACED_PATHS = new Set(['/health', '/metrics']);

/**
 * The tracer provider (batched OTLP/HTTP export to `<endpoint>/v1/traces`, as the OTLP spec builds a signal's URL)
 * and the instrumentations: http for requests in and provider calls out, pg and ioredis for what a request waits
 * on. Database and Redis spans only under a span of ours or a request's: Bull polls Redis all day.
 */
export function startTracingSdk(settings: { endpoint: string; serviceName: string }): () => Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
        // Efí's webhook URL carries its secret as `hmac` (logs already drop webhook queries); the rest are the defaults.
        redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      // The command's name only: its arguments carry job data and keys, which a trace backend has no need to keep.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  // The instrumentations patch a module when it is require()d. Our ESM code imports http and https, which no
  // require() may ever load after this point (Efí's https, say): loading them here patches them for every importer.
  const require = createRequire(import.meta.url);
  for (const core of ['node:http', 'node:https']) require(core);
  return () => provider.shutdown();
}
