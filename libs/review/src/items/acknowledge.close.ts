import type { EntityManager } from 'typeorm';
import { writeReviewAudit } from './review-audit.writer.js';

/**
 * Closes an item its claimant acknowledges, in the caller's transaction: the change is conditional on the claim
 * (row count checked) and the audit row is written with it. False when the claim was lost; nothing changed then.
 */
export async function closeAcknowledged(em: EntityManager, itemId: string, actor: string, followUp: string, reason: string, evidence: Record<string, unknown>): Promise<boolean> {
  const [, affected] = await em.query<[unknown[], number]>(
    `UPDATE review_items SET state = 'closed', decision = 'acknowledge', follow_up = $3, decision_reason = $4,
            decided_by = $2, decided_at = now(), closed_at = now(), updated_at = now()
      WHERE id = $1 AND state = 'claimed' AND claimed_by = $2 AND claim_expires_at > now()`,
    [itemId, actor, followUp, reason],
  );
  if (affected !== 1) return false;
  await writeReviewAudit(em, { reviewItemId: itemId, actor, action: 'decide', decision: 'acknowledge', reason, stateBefore: 'claimed', stateAfter: 'closed', evidence });
  return true;
}
