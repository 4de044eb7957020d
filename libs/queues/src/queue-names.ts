/** Queue names in one place: the api enqueues, the worker processes. */
export const SUBMIT_QUEUE = 'attempt-submit';

/**
 * Resolution queries go to one queue per provider, because each provider has its own query budget
 * (ProviderQueryPacer): a Stripe backlog waiting for its slots must not hold up Asaas's jobs, nor the reverse.
 * Adding a provider adds its name here; a test checks this list against the gateway registry.
 */
export const RESOLUTION_PROVIDERS = ['stripe', 'asaas', 'efi'] as const;

export function resolutionQueueFor(provider: string): string {
  return `attempt-resolution-${provider}`;
}

/** Every queue, for the queue board and the queue depth gauge. */
export const QUEUE_NAMES: readonly string[] = [SUBMIT_QUEUE, ...RESOLUTION_PROVIDERS.map(resolutionQueueFor)];
