import { databaseConnectionLosses, type ChargeEntity } from '@app/database';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Charges this process just created, handed once to their first submit so it can skip reading the charge
 * back (a charge's amount, currency, customer and provider never change). Only a hint, never a guard: the
 * submit still opens its attempt through the function that takes the charge lock and confirms, in the
 * database, that the charge has no attempt and nobody is reviewing it. A miss just reads the charge.
 */
export class CreatedChargesCache {
  private readonly entries = new Map<string, { charge: ChargeEntity; until: number; losses: number }>();

  remember(charge: ChargeEntity): void {
    // Oldest first in a Map: drop the oldest when full, so the cache can never grow without bound.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(charge.id, { charge, until: Date.now() + TTL_MS, losses: databaseConnectionLosses() });
  }

  /**
   * The charge, once: a second submit of the same charge reads what the first one wrote. Only within the caller's
   * merchant (`merchantId`, null for every merchant): another merchant's id is a miss, and the read that follows
   * is scoped in its SQL.
   */
  take(chargeId: string, merchantId: string | null): ChargeEntity | null {
    const entry = this.entries.get(chargeId);
    if (!entry || (merchantId !== null && entry.charge.merchantId !== merchantId)) return null;
    this.entries.delete(chargeId);
    // A connection lost since the create may have lost its commit, and the merchant may have created the order
    // again (the same derived id) with other fields: after a loss, the charge is read, never remembered.
    return entry.until > Date.now() && entry.losses === databaseConnectionLosses() ? entry.charge : null;
  }
}
