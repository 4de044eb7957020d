import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { OpenWorkGauges } from './open-work.gauges.js';
import { QueueDepthGauges } from './queue-depth.gauges.js';
import { RedisHealthIndicator } from './redis-health.indicator.js';

/** Health and metrics endpoints, for the api and the worker alike (each process is scraped on its own). */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController, MetricsController],
  providers: [RedisHealthIndicator, OpenWorkGauges, QueueDepthGauges],
})
export class ObservabilityModule {}
