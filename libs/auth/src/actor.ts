import type { ApiRole } from '@app/database';

/**
 * Who is calling. `name` is what audit trails and four-eyes record: a reviewer's or admin's **person** (two tokens
 * of one person are one actor), a merchant token's own name. `merchantId` is the tenant a merchant token belongs
 * to, and what every merchant route puts in its SQL; null for reviewers and admins, who see every merchant.
 */
export interface Actor {
  name: string;
  role: ApiRole;
  merchantId: string | null;
  /** The token's own name (for token:list and logs), which is not the person. */
  tokenName: string;
}

/** Admin is trusted with everything the other roles may do. */
export function actorHasRole(actor: Actor, allowed: readonly ApiRole[]): boolean {
  return actor.role === 'admin' || allowed.includes(actor.role);
}

/**
 * The merchant scope of a request, for the SQL of merchant routes: the caller's merchant, or null for a reviewer
 * or admin (every merchant). Another merchant's resource then simply is not found.
 */
export function merchantScope(actor: Actor): string | null {
  if (actor.role !== 'merchant') return null;
  // Never widen: a merchant token without a merchant (the CHECK forbids it) would otherwise see every merchant.
  if (!actor.merchantId) throw new Error(`merchant token ${actor.tokenName} belongs to no merchant`);
  return actor.merchantId;
}

/** Where a caller's inbound Idempotency-Keys live: its merchant's (shared by the merchant's tokens), else its own. */
export function idempotencyScope(actor: Actor): string {
  return actor.merchantId ? `merchant:${actor.merchantId}` : `${actor.role}:${actor.name}`;
}
