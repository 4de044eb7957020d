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
  stopSdk = startTracingSdk({ endpoint, serviceName: config.OTEL_SERVICE_NAME ?? defaultServiceName });
}

let stopSdk: (() => Promise<void>) | null = null;

/**
 * Exports the spans still batched and stops tracing (a no-op when it never started). Called from the app's
 * shutdown hook, after the app has stopped taking work, so the last requests' and jobs' spans are not lost.
 */
export async function stopTracing(): Promise<void> {
  const stop = stopSdk;
  stopSdk = null;
  await stop?.();
}
