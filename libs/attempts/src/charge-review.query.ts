import type { EntityManager } from 'typeorm';

/** Whether a person is deciding about any charge attempt of this charge (its refunds' items are their own). */
export async function chargeHasOpenReviewItem(em: EntityManager, chargeId: string): Promise<boolean> {
  const [{ open }] = await em.query<Array<{ open: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
                     WHERE a.charge_id = $1 AND a.operation = 'charge' AND r.state <> 'closed') AS open`,
    [chargeId],
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
       FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
      WHERE a.charge_id = $1 AND r.state <> 'closed' ORDER BY r.created_at, r.id`,
    [chargeId],
  );
}
