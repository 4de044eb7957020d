import { Module } from '@nestjs/common';
import { ObservabilityModule } from '@app/observability';
import { WorkerModule } from './worker.module.js';

/**
 * The worker as a process: its processors plus a small HTTP server on WORKER_HTTP_PORT with /health and
 * /metrics, so what the worker observes (time to certainty, resolution tries) is scraped from the worker.
 * Kept apart from WorkerModule so tests can run the processors inside an api without a second /metrics.
 */
@Module({ imports: [WorkerModule, ObservabilityModule.register({ metricsOnMainPort: 'always' })] })
export class WorkerHttpModule {}
