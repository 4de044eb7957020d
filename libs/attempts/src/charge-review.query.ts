import type { EntityManager } from 'typeorm';

/** Whether a person is deciding about any attempt of this charge. */
export async function chargeHasOpenReviewItem(em: EntityManager, chargeId: string): Promise<boolean> {
  const [{ open }] = await em.query<Array<{ open: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
                     WHERE a.charge_id = $1 AND r.state <> 'closed') AS open`,
    [chargeId],
  );
  return open;
}
