import type { EntityManager } from 'typeorm';

/**
 * Serialises everything that decides whose a provider charge is: recording it as an attempt's success (the fact
 * applier) and approving a refund proposal for it. A transaction-scoped advisory lock keyed by provider and id, so
 * an approval and the recording of that id as our success can never both commit on a stale picture.
 */
export async function lockProviderCharge(em: EntityManager, provider: string, providerChargeId: string): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`provider-charge:${provider}:${providerChargeId}`]);
}
