import type { ProviderOutcome } from '../gateway-call.result.js';

/** Efí's status of a sent Pix (provider-contracts.md §4b) on our states; anything else is not a fact. */
export function mapEfiPixStatus(status: unknown): ProviderOutcome | null {
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return 'pending';
    case 'REALIZADO':
      return 'succeeded';
    case 'NAO_REALIZADO':
      return 'failed';
    default:
      return null;
  }
}
