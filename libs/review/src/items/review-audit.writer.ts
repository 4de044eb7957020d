import type { EntityManager } from 'typeorm';
import { ReviewAuditEntity, type ReviewAuditAction } from '@app/database';

export interface ReviewAuditRecord {
  reviewItemId: string;
  actor: string;
  action: ReviewAuditAction;
  decision?: string | null;
  reason?: string | null;
  stateBefore: string;
  stateAfter: string;
  evidence?: Record<string, unknown> | null;
}

/** Always called with the transaction that changes the item, so the trail and the state never disagree. */
export async function writeReviewAudit(em: EntityManager, record: ReviewAuditRecord): Promise<void> {
  await em.insert(ReviewAuditEntity, {
    reviewItemId: record.reviewItemId,
    actor: record.actor,
    action: record.action,
    decision: record.decision ?? null,
    reason: record.reason ?? null,
    stateBefore: record.stateBefore,
    stateAfter: record.stateAfter,
    evidence: record.evidence ?? null,
  });
}
