import { PROVIDERS } from '@app/gateways';

/** Queue names in one place: the api enqueues, the worker processes. */
export const SUBMIT_QUEUE = 'attempt-submit';

/**
 * Resolution queries go to one queue per registered provider (PROVIDERS), because Bull's rate limiter is per
 * queue and each provider has its own query budget (a Stripe backlog must not spend Asaas's quota, nor the reverse).
 */
export function resolutionQueueFor(provider: string): string {
  return `attempt-resolution-${provider}`;
}

/** On-demand reconciliation runs: the api records the run and queues it, a worker executes it. */
export const RECONCILIATION_RUN_QUEUE = 'reconciliation-run';

/** Every queue, for the queue board and the queue depth gauge. */
export const QUEUE_NAMES: readonly string[] = [SUBMIT_QUEUE, ...PROVIDERS.map(resolutionQueueFor), RECONCILIATION_RUN_QUEUE];
