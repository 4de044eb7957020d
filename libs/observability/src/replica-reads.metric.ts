import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ReplicaReader } from '@app/database/replica';
import { metricsRegistry } from './metrics.js';

const NAME = 'charge_once_replica_reads_total';

/**
 * The screens' and exports' reads by who served them: a standby that lags or is down moves them to the primary
 * without an error anywhere, so this is where an operator sees the primary carrying what the replica should.
 * Read from the reader at scrape time; replaced per app like the scrape-time gauges (tests build several apps).
 */
@Injectable()
export class ReplicaReadsMetric implements OnModuleInit, OnModuleDestroy {
  constructor(private readonly reader: ReplicaReader) {}

  onModuleInit(): void {
    this.onModuleDestroy();
    const reader = this.reader;
    new Counter({
      name: NAME,
      help: 'Reads of the replica-tolerant screens and exports, by who served them (replica, or primary and why)',
      labelNames: ['served_by', 'reason'] as const,
      registers: [metricsRegistry],
      collect(this: Counter<'served_by' | 'reason'>) {
        this.reset();
        for (const { servedBy, reason, reads } of reader.readsServed()) this.inc({ served_by: servedBy, reason }, reads);
      },
    });
  }

  onModuleDestroy(): void {
    metricsRegistry.removeSingleMetric(NAME);
  }
}
