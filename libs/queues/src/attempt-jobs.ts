import { InjectQueue, getQueueToken } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { PROVIDERS } from '@app/gateways';
import { traceCarrier, type TraceCarrier } from '@app/observability/tracing';
import { addUnlessLive } from './live-reminder.js';
import { SUBMIT_QUEUE, resolutionQueueFor } from './queue-names.js';

const ONE_SHOT = { attempts: 1, removeOnComplete: true, removeOnFail: true } as const;

/** `traceparent`: the trace that queued the job (when tracing is on), which the job's span links to. */
export interface AttemptJob extends TraceCarrier {
  attemptId: string;
}

/**
 * Reminders for the worker. Each job id names the attempt and the step it is for, so scheduling the
 * same step twice (a submit and the sweeper, say) queues it once while it is live; finished jobs are
 * removed so the id can be scheduled again after a loss. The database decides what a job does.
 */
@Injectable()
export class AttemptJobs {
  private readonly resolutionQueues = new Map<string, Queue<AttemptJob>>();

  constructor(
    @InjectQueue(SUBMIT_QUEUE) private readonly submitQueue: Queue<AttemptJob>,
    moduleRef: ModuleRef,
  ) {
    for (const provider of PROVIDERS) {
      this.resolutionQueues.set(provider, moduleRef.get(getQueueToken(resolutionQueueFor(provider)), { strict: false }));
    }
  }

  /** Send a pending attempt again (same key, same bytes) once its backoff has passed. */
  async scheduleSend(attemptId: string, step: number, delayMs: number): Promise<void> {
    await this.submitQueue.add({ attemptId, ...traceCarrier() }, { ...ONE_SHOT, jobId: `send:${attemptId}:${step}`, delay: delayMs });
  }

  /** Ask the provider what happened to an unknown attempt, within that provider's query budget. */
  async scheduleResolution(attemptId: string, provider: string, step: number, delayMs: number): Promise<void> {
    await this.resolutionQueue(provider).add({ attemptId, ...traceCarrier() }, { ...ONE_SHOT, jobId: `resolve:${attemptId}:${step}`, delay: delayMs });
  }

  /** The sweeper's `scheduleSend`: also replaces a job that Redis kept in no list (see addUnlessLive). */
  async recreateSend(attemptId: string, step: number): Promise<void> {
    await addUnlessLive(this.submitQueue, { attemptId }, { ...ONE_SHOT, jobId: `send:${attemptId}:${step}` });
  }

  /** The sweeper's `scheduleResolution`: also replaces a job that Redis kept in no list (see addUnlessLive). */
  async recreateResolution(attemptId: string, provider: string, step: number): Promise<void> {
    await addUnlessLive(this.resolutionQueue(provider), { attemptId }, { ...ONE_SHOT, jobId: `resolve:${attemptId}:${step}` });
  }

  private resolutionQueue(provider: string): Queue<AttemptJob> {
    const queue = this.resolutionQueues.get(provider);
    if (!queue) throw new Error(`no resolution queue for provider ${provider}`);
    return queue;
  }
}
