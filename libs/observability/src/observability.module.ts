import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { OpenWorkGauges } from './open-work.gauges.js';
import { RedisHealthIndicator } from './redis-health.indicator.js';

/** Health and metrics endpoints for the api. */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController, MetricsController],
  providers: [RedisHealthIndicator, OpenWorkGauges],
})
export class ObservabilityModule {}
