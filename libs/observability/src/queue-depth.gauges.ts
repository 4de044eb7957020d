import { getQueueToken } from '@nestjs/bull';
import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { Gauge } from 'prom-client';
import { QUEUE_NAMES } from '@app/queues';
import { metricsRegistry, scrapeSafely } from './metrics.js';

const NAME = 'charge_once_queue_jobs';
const STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;

/**
 * Jobs per queue and state, asked of Redis (getJobCounts) when Prometheus scrapes, so the figure is the
 * queue's, not this process's view of it. A Redis that does not answer leaves the gauge empty for that scrape.
 */
@Injectable()
export class QueueDepthGauges implements OnModuleInit, OnModuleDestroy {
  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    const queues = QUEUE_NAMES.map((name) => ({ name, queue: this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }) }));
    this.onModuleDestroy();
    new Gauge({
      name: NAME,
      help: 'Jobs in each queue, by state, read from Redis at scrape time',
      labelNames: ['queue', 'state'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        await Promise.all(
          queues.map(async ({ name, queue }) => {
            const counts = await queue.getJobCounts().catch(() => null);
            if (!counts) return;
            for (const state of STATES) this.set({ queue: name, state }, (counts as unknown as Record<string, number>)[state] ?? 0);
          }),
        );
      }),
    });
  }

  /** The registry is per process, and tests build several apps in one process. */
  onModuleDestroy(): void {
    metricsRegistry.removeSingleMetric(NAME);
  }
}
