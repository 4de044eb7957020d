import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { metricsRegistry } from './metrics.js';

/** One gauge whose values are read from the source of truth (PostgreSQL, Redis) when Prometheus scrapes. */
export interface ScrapeTimeGauge {
  name: string;
  help: string;
  labelNames?: string[];
  /** The gauge's values now, one per label set (no labels for a gauge that has none). */
  read(): Promise<Array<{ labels?: Record<string, string>; value: number }>>;
}

const logger = new Logger('Metrics');

/**
 * Gauges read at scrape time, so every process answers the same figure, the database's or Redis's, not its own
 * view. When a source fails, that gauge is empty for the scrape and the failure is logged: one bad source never
 * costs Prometheus every other metric (a 500). The registry is per process and tests build several apps in one
 * process, so each app replaces the gauges on init and removes them when it stops.
 */
export abstract class ScrapeTimeGauges implements OnModuleInit, OnModuleDestroy {
  private registered: string[] = [];

  protected abstract gauges(): ScrapeTimeGauge[];

  onModuleInit(): void {
    const specs = this.gauges();
    this.registered = specs.map((spec) => spec.name);
    this.onModuleDestroy();
    for (const spec of specs) {
      new Gauge({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        registers: [metricsRegistry],
        async collect(this: Gauge) {
          try {
            const values = await spec.read();
            this.reset();
            for (const { labels, value } of values) {
              if (labels) this.set(labels, value);
              else this.set(value);
            }
          } catch (error) {
            this.reset();
            logger.warn({ err: error, gauge: spec.name }, 'a gauge could not be read at scrape time; it is empty for this scrape');
          }
        },
      });
    }
  }

  onModuleDestroy(): void {
    for (const name of this.registered) metricsRegistry.removeSingleMetric(name);
  }
}
