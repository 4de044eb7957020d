import type { EntityManager } from 'typeorm';
import { providerRefundedBesideOurs } from '@app/charges/store';
import { isUuid } from '@app/common';
import type { RefundFact } from '@app/gateways';

/** Our refund attempt a refund event is about: by the reference we sent, then by the refund id we recorded. */
export async function matchRefundAttempt(em: EntityManager, provider: string, refund: RefundFact): Promise<string | null> {
  const byReference = isUuid(refund.attemptId) ? refund.attemptId : null;
  // Only this provider's attempts: an event of one provider never settles another provider's refund.
  const rows = await em.query<Array<{ id: string }>>(
    `SELECT id FROM attempts WHERE operation = 'refund' AND provider = $3 AND (id = $1 OR provider_ref = $2)
      ORDER BY (id = $1) DESC NULLS LAST LIMIT 1`,
    [byReference, refund.providerRefundId, provider],
  );
  return rows[0]?.id ?? null;
}

/**
 * Whether the provider's refunded total for a charge is explained by our refunds: those that succeeded, those still
 * open (a `charge.refunded` often arrives before the refund's own response or event), and those we had failed that
 * the provider made all the same (a late refund), by the one definition the refund cap counts them with
 * (providerRefundedBesideOurs). Runs under the charge row lock.
 */
export async function refundedTotalExplained(em: EntityManager, chargeId: string, refundedCents: number): Promise<{ explained: boolean; ourCents: number }> {
  const { oursCents } = await providerRefundedBesideOurs(em, chargeId);
  return { explained: refundedCents <= oursCents, ourCents: oursCents };
}

/** Whether refunds of approved proposals for this provider charge (succeeded or still open) cover its refunded total. */
export async function proposalRefundsExplain(em: EntityManager, provider: string, providerChargeId: string, refundedCents: number): Promise<boolean> {
  const [row] = await em.query<Array<{ ours: string }>>(
    `SELECT COALESCE(sum(r.amount_cents), 0) AS ours FROM refunds r JOIN refund_proposals p ON p.id = r.proposal_id
      WHERE r.provider_charge_id = $1 AND p.provider = $2 AND r.released_at IS NULL`,
    [providerChargeId, provider],
  );
  return refundedCents <= Number(row.ours);
}
