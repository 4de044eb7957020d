import { PROVIDERS } from '@app/gateways';

/** Queue names in one place: the api enqueues, the worker processes. */
export const SUBMIT_QUEUE = 'attempt-submit';

/**
 * Resolution queries go to one queue per registered provider (PROVIDERS), because each provider has its own query budget
 * (ProviderQueryPacer): a Stripe backlog waiting for its slots must not hold up Asaas's jobs, nor the reverse.
 */
export function resolutionQueueFor(provider: string): string {
  return `attempt-resolution-${provider}`;
}

/** On-demand reconciliation runs: the api records the run and queues it, a worker executes it. */
export const RECONCILIATION_RUN_QUEUE = 'reconciliation-run';

/** Every queue, for the queue board and the queue depth gauge. */
export const QUEUE_NAMES: readonly string[] = [SUBMIT_QUEUE, ...PROVIDERS.map(resolutionQueueFor), RECONCILIATION_RUN_QUEUE];

/**
 * Resolution jobs one worker runs at once. Most of a job's time is waiting (for its slot in the provider's budget,
 * the lookup, the database), ~200 ms on a loaded machine, so 16 at once could not keep a 100/s budget busy; the
 * pacer, not this number, bounds the provider's rate, and the database pool (20) bounds the statements in flight.
 */
export const RESOLUTION_CONCURRENCY = 48;
