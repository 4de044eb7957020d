import type { AppConfig } from '@app/config';

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, and does nothing otherwise: the SDK is
 * only imported then. A process entry point awaits this before it imports the app (by dynamic import), because
 * the pg and ioredis instrumentations patch those modules as they are first required: loaded earlier, they stay
 * unpatched.
 */
export async function startTracing(config: AppConfig, defaultServiceName: string): Promise<void> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return;
  const { startTracingSdk } = await import('./tracing-sdk.js');
  startTracingSdk({ endpoint, serviceName: config.OTEL_SERVICE_NAME ?? defaultServiceName });
}
