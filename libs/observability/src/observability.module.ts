import { type DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { METRICS_ON_MAIN_PORT, MetricsController } from './metrics.controller.js';
import { OpenWorkGauges } from './open-work.gauges.js';
import { QueueDepthGauges } from './queue-depth.gauges.js';
import { RedisHealthIndicator } from './redis-health.indicator.js';
import { ReplicaReadsMetric } from './replica-reads.metric.js';

/**
 * Health and metrics endpoints, for the api and the worker alike (each process is scraped on its own).
 * `metricsOnMainPort`: `always` for the worker, whose port is internal; `withToken` for the api, whose port is
 * public: there /metrics is served only behind METRICS_TOKEN, and otherwise on METRICS_PORT alone (listenMetrics).
 */
@Module({})
export class ObservabilityModule {
  static register(options: { metricsOnMainPort: 'always' | 'withToken' }): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [TerminusModule],
      controllers: [HealthController, MetricsController],
      providers: [RedisHealthIndicator, OpenWorkGauges, QueueDepthGauges, ReplicaReadsMetric, { provide: METRICS_ON_MAIN_PORT, useValue: options.metricsOnMainPort }],
    };
  }
}
