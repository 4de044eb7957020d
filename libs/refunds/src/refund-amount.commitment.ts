import type { EntityManager } from 'typeorm';
import type { ChargeEntity } from '@app/database';
import { RefundExceedsRefundableError } from './refunds.errors.js';

/**
 * SQL, for the charge row `c`: what the provider refunded of it with no refund of ours holding that money, as
 * reconciliation found, open or acknowledged alike (a person's acknowledgement does not bring the money back):
 * its `refund_provider_only` divergences (a refund we did not make, or one we recorded as failed; one an attempt of
 * ours holds again, not failed, is in refund_committed_cents and counts once), and what a `refund_amount_mismatch`
 * refunded beyond our refund's own amount.
 */
const PROVIDER_ONLY_REFUNDED = `COALESCE((
  SELECT sum(CASE WHEN d.kind = 'refund_provider_only' THEN d.amount_cents
                  ELSE GREATEST(d.amount_cents - COALESCE((d.detail->>'expectedAmountCents')::bigint, d.amount_cents), 0) END)
    FROM reconciliation_divergences d
   WHERE d.charge_id = c.id
     AND (d.kind = 'refund_amount_mismatch'
          OR (d.kind = 'refund_provider_only'
              AND NOT EXISTS (SELECT 1 FROM attempts x
                               WHERE x.operation = 'refund' AND x.status <> 'failed' AND (x.id = d.attempt_id OR x.provider_ref = d.provider_charge_id))))), 0)`;

/**
 * Under the charge row lock: succeeds only while open and succeeded refunds, plus what the provider refunded
 * without us, stay within the captured amount. The CHECK on the charge row is the last word on our own refunds
 * should any other writer try.
 */
export async function commitRefundAmount(em: EntityManager, charge: ChargeEntity, amountCents: number): Promise<void> {
  const [rows] = await em.query<[unknown[], number]>(
    `UPDATE charges c SET refund_committed_cents = refund_committed_cents + $2, updated_at = now()
      WHERE id = $1 AND refund_committed_cents + $2 + ${PROVIDER_ONLY_REFUNDED} <= amount_cents RETURNING id`,
    [charge.id, amountCents],
  );
  if (rows.length === 1) return;
  const [current] = await em.query<Array<{ refundable: string }>>(
    `SELECT GREATEST(amount_cents - refund_committed_cents - ${PROVIDER_ONLY_REFUNDED}, 0) AS refundable FROM charges c WHERE id = $1`,
    [charge.id],
  );
  throw new RefundExceedsRefundableError(charge.id, amountCents, Number(current.refundable));
}
