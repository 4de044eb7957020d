import type { EntityManager } from 'typeorm';
import type { AttemptStatus } from '@app/attempts';
import { deriveRefundStatus, type RefundStatus } from './rules/refund-status.js';

export interface RefundSummary {
  id: string;
  amountCents: number;
  status: RefundStatus;
}

/** A charge's refunds, oldest first, each with its derived status: one query for the charge view. */
export async function refundSummariesOf(em: EntityManager, chargeId: string): Promise<RefundSummary[]> {
  const rows = await em.query<Array<{ id: string; amount_cents: string; statuses: AttemptStatus[] | null; lates: Array<{ at: string; cents: number | null }> | null; in_review: boolean }>>(
    `SELECT r.id, r.amount_cents,
            array_remove(array_agg(a.status ORDER BY a.created_at), NULL) AS statuses,
            jsonb_agg(jsonb_build_object('at', a.late_refunded_at, 'cents', a.late_refund_amount_cents)) FILTER (WHERE a.late_refunded_at IS NOT NULL) AS lates,
            EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                     WHERE x.refund_id = r.id AND ri.state <> 'closed') AS in_review
       FROM refunds r LEFT JOIN attempts a ON a.refund_id = r.id AND a.operation = 'refund'
      WHERE r.charge_id = $1
      GROUP BY r.id ORDER BY min(r.created_at), r.id`,
    [chargeId],
  );
  return rows.map((row) => ({
    id: row.id,
    amountCents: Number(row.amount_cents),
    // A late refund sits beside one of the `failed` statuses: the refund is made all the same.
    status: deriveRefundStatus(
      [...(row.statuses ?? []).map((status) => ({ status })), ...(row.lates ?? []).map((late) => ({ status: 'failed' as const, lateRefundedAt: new Date(late.at), lateRefundAmountCents: late.cents === null ? null : Number(late.cents) }))],
      row.in_review,
      Number(row.amount_cents),
    ),
  }));
}
