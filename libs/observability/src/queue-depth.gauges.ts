import { getQueueToken } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { QUEUE_NAMES } from '@app/queues';
import { ScrapeTimeGauges, type ScrapeTimeGauge } from './scrape-time.gauges.js';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;

/** Jobs per queue and state, asked of Redis (getJobCounts): the queue's figure, not this process's view of it. */
@Injectable()
export class QueueDepthGauges extends ScrapeTimeGauges {
  constructor(private readonly moduleRef: ModuleRef) {
    super();
  }

  protected gauges(): ScrapeTimeGauge[] {
    const queues = QUEUE_NAMES.map((name) => ({ name, queue: this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }) }));
    return [
      {
        name: 'charge_once_queue_jobs',
        help: 'Jobs in each queue, by state, read from Redis at scrape time',
        labelNames: ['queue', 'state'],
        read: async () => {
          // A queue whose Redis does not answer is left out of this scrape; the others still count.
          const counted = await Promise.all(queues.map(async ({ name, queue }) => ({ name, counts: await queue.getJobCounts().catch(() => null) })));
          return counted.flatMap(({ name, counts }) =>
            counts ? STATES.map((state) => ({ labels: { queue: name, state }, value: (counts as unknown as Record<string, number>)[state] ?? 0 })) : [],
          );
        },
      },
    ];
  }
}
