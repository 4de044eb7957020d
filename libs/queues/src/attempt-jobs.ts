import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { RESOLUTION_QUEUE, SUBMIT_QUEUE } from './queue-names.js';

const ONE_SHOT = { attempts: 1, removeOnComplete: true, removeOnFail: true } as const;

export interface AttemptJob {
  attemptId: string;
}

/**
 * Reminders for the worker. Each job id names the attempt and the step it is for, so scheduling the
 * same step twice (a submit and the sweeper, say) queues it once while it is live; finished jobs are
 * removed so the id can be scheduled again after a loss. The database decides what a job does.
 */
@Injectable()
export class AttemptJobs {
  constructor(
    @InjectQueue(SUBMIT_QUEUE) private readonly submitQueue: Queue<AttemptJob>,
    @InjectQueue(RESOLUTION_QUEUE) private readonly resolutionQueue: Queue<AttemptJob>,
  ) {}

  /** Send a pending attempt again (same key, same bytes) once its backoff has passed. */
  async scheduleSend(attemptId: string, step: number, delayMs: number): Promise<void> {
    await this.submitQueue.add({ attemptId }, { ...ONE_SHOT, jobId: `send:${attemptId}:${step}`, delay: delayMs });
  }

  /** Ask the provider what happened to an unknown attempt. */
  async scheduleResolution(attemptId: string, step: number, delayMs: number): Promise<void> {
    await this.resolutionQueue.add({ attemptId }, { ...ONE_SHOT, jobId: `resolve:${attemptId}:${step}`, delay: delayMs });
  }
}
