import type { EntityManager } from 'typeorm';

/** Whether a person is deciding about any attempt of this refund. */
export async function refundHasOpenReviewItem(em: EntityManager, refundId: string): Promise<boolean> {
  const [{ open }] = await em.query<Array<{ open: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
                     WHERE a.refund_id = $1 AND a.operation = 'refund' AND r.state <> 'closed') AS open`,
    [refundId],
  );
  return open;
}
