import type { EntityManager } from 'typeorm';

/** Whether a person is deciding about any charge attempt of this charge (its refunds' items are their own). */
export async function chargeHasOpenReviewItem(em: EntityManager, chargeId: string): Promise<boolean> {
  const [{ open }] = await em.query<Array<{ open: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
                     WHERE a.charge_id = $1 AND a.operation = 'charge' AND r.state <> 'decided') AS open`,
    [chargeId],
  );
  return open;
}
