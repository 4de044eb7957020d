import { loadConfigOrExit } from '@app/config';
import { startTracing } from '@app/observability/tracing';

// Tracing (when configured) starts before the app's modules load: pg, ioredis and http are patched as they load.
await startTracing(loadConfigOrExit(), 'charge-once-worker');
await import('./serve-worker.js');
