import type { EntityManager } from 'typeorm';

const OWNER_COLUMN = { charge: 'charge_id', refund: 'refund_id', payout: 'payout_id' } as const;

/**
 * Whether a person is deciding about any attempt of this charge, refund or payout (an operation's own attempts
 * only: a charge's refunds have their own items).
 */
export async function hasOpenReviewItem(em: EntityManager, operation: keyof typeof OWNER_COLUMN, ownerId: string): Promise<boolean> {
  const [{ open }] = await em.query<Array<{ open: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM review_items r JOIN attempts a ON a.id = r.attempt_id
                     WHERE a.${OWNER_COLUMN[operation]} = $1 AND a.operation = $2 AND r.state <> 'closed') AS open`,
    [ownerId, operation],
  );
  return open;
}

export interface ChargeReviewItem {
  id: string;
  reason: string;
  state: string;
}

/** The charge's review items still waiting for a person, oldest first, whatever the charge's status. */
export async function openReviewItemsOfCharge(em: EntityManager, chargeId: string): Promise<ChargeReviewItem[]> {
  return em.query<ChargeReviewItem[]>(
    `SELECT r.id, r.reason, CASE WHEN r.state = 'claimed' AND r.claim_expires_at <= now() THEN 'open' ELSE r.state END AS state
       FROM review_items r JOIN attempts a ON a.id = r.attempt_id
      WHERE a.charge_id = $1 AND r.state <> 'closed' ORDER BY r.created_at, r.id`,
    [chargeId],
  );
}
