import type { DataSource, EntityManager } from 'typeorm';
import type { PoolClient } from 'pg';
import { type ChargeEntity, preparedQuery } from '@app/database';

/**
 * The one writer of `charges`: every insert and every column change of a charge row is one of these statements, so
 * the charge's outbox (the MerchantEvents triggers, which note the row and derive its event at commit) sees every
 * change the same way, and a new path cannot write a charge without being added here. Nothing here imports another
 * library but database: attempts, refunds, webhooks and reconciliation all call it, and it must stay below them.
 * Each function runs in its caller's transaction, which holds the charge row lock where a rule needs one.
 */

/** One charge per merchant and order id: `UQ_charges_merchant_order_id` refuses a second (the caller maps 23505 to 409). One commit. */
export async function insertCharge(db: DataSource, c: ChargeEntity): Promise<void> {
  await preparedQuery(
    db,
    'hot_insert_charge_v3',
    `INSERT INTO charges (id, order_id, amount_cents, currency, customer_id, payment_method_id, customer_ip, provider, billing_type, due_date, created_by, merchant_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [c.id, c.orderId, c.amountCents, c.currency, c.customerId, c.paymentMethodId, c.customerIp, c.provider, c.billingType, c.dueDate, c.createdBy, c.merchantId],
  );
}

/**
 * SQL, for the charge row `c`: what the provider refunded of it with no refund of ours holding that money, as
 * reconciliation found, open or acknowledged alike (a person's acknowledgement does not bring the money back):
 * its `refund_provider_only` divergences (a refund we did not make, or one we recorded as failed; one an attempt of
 * ours holds again, not failed, is in refund_committed_cents and counts once; one the provider reversed later, a
 * `refund_failure` line, moved nothing), and what a `refund_amount_mismatch` refunded beyond our refund's own amount.
 */
const PROVIDER_ONLY_REFUNDED = `COALESCE((
  SELECT sum(CASE WHEN d.kind = 'refund_provider_only' THEN d.amount_cents
                  ELSE GREATEST(d.amount_cents - COALESCE((d.detail->>'expectedAmountCents')::bigint, d.amount_cents), 0) END)
    FROM reconciliation_divergences d
   WHERE d.charge_id = c.id
     AND (d.kind = 'refund_amount_mismatch'
          OR (d.kind = 'refund_provider_only' AND NOT d.detail ? 'reversedAtProvider'
              AND NOT EXISTS (SELECT 1 FROM attempts x
                               WHERE x.operation = 'refund' AND (x.status <> 'failed' OR x.late_refunded_at IS NOT NULL)
                                 AND (x.id = d.attempt_id OR x.provider_ref = d.provider_charge_id OR x.late_refund_provider_ref = d.provider_charge_id))))), 0)`;

/**
 * SQL, for the charge row `c`: what the provider refunded for refund attempts of ours that we had failed (their
 * amount given back to `refund_committed_cents`), recorded beside the `failed` when the provider said so
 * (recordLateRefund, under this row's lock), for the amount the provider says it refunded, not the one we asked.
 * Counted per attempt: a retry of the same refund that holds its amount again is another refund at the provider.
 */
const LATE_REFUNDED = `COALESCE((
  SELECT sum(x.late_refund_amount_cents) FROM attempts x
   WHERE x.charge_id = c.id AND x.operation = 'refund' AND x.late_refunded_at IS NOT NULL
     -- A late refund the provider reversed afterwards (a kept refund_failure movement) moved nothing.
     AND NOT EXISTS (SELECT 1 FROM reconciliation_money_movements m
                      WHERE m.kind = 'refund_failure' AND m.provider = x.provider AND m.reference = x.late_refund_provider_ref)), 0)`;

/**
 * Under the charge row lock: holds `amountCents` for a refund only while open and succeeded refunds, plus what the
 * provider refunded without us or after we had failed the refund, stay within the captured amount. Null when held; otherwise what is still
 * refundable (the caller refuses with it). The CHECK on the row is the last word should any writer try more.
 */
export async function holdRefundAmount(em: EntityManager, chargeId: string, amountCents: number): Promise<number | null> {
  const [rows] = await em.query<[unknown[], number]>(
    `UPDATE charges c SET refund_committed_cents = refund_committed_cents + $2, updated_at = now()
      WHERE id = $1 AND refund_committed_cents + $2 + ${PROVIDER_ONLY_REFUNDED} + ${LATE_REFUNDED} <= amount_cents RETURNING id`,
    [chargeId, amountCents],
  );
  if (rows.length === 1) return null;
  const [current] = await em.query<Array<{ refundable: string }>>(
    `SELECT GREATEST(amount_cents - refund_committed_cents - ${PROVIDER_ONLY_REFUNDED} - ${LATE_REFUNDED}, 0) AS refundable FROM charges c WHERE id = $1`,
    [chargeId],
  );
  return Number(current.refundable);
}

/**
 * Under the charge row lock: the provider's refunded total from its events, beside what refunds of ours explain of
 * it, counted by the cap's own terms (holdRefundAmount), so a refund the cap counts is one that explains: those open
 * or succeeded, which hold their amount (`refund_committed_cents`; one still open may yet succeed, and is checked
 * again when it fails and gives it back), and those the provider made after we had failed them, for the amount it
 * says it refunded, less any it reversed since (LATE_REFUNDED). What the provider refunded without us explains
 * nothing: that is the question a person is asked.
 */
export async function providerRefundedBesideOurs(em: EntityManager, chargeId: string): Promise<{ reportedCents: number; oursCents: number }> {
  const [row] = await em.query<Array<{ reported: string; ours: string }>>(
    `SELECT c.refunded_cents AS reported, c.refund_committed_cents + ${LATE_REFUNDED} AS ours FROM charges c WHERE c.id = $1`,
    [chargeId],
  );
  if (!row) throw new Error(`charge ${chargeId} was not found to explain its provider refunds`);
  return { reportedCents: Number(row.reported), oursCents: Number(row.ours) };
}

/** Gives back what a failed refund held. Exactly one row or the caller's transaction fails: the amount never vanishes. */
export async function releaseRefundAmount(em: EntityManager, chargeId: string, amountCents: number | string): Promise<void> {
  const [, affected] = await em.query<[unknown, number]>(
    `UPDATE charges SET refund_committed_cents = refund_committed_cents - $2, updated_at = now() WHERE id = $1`,
    [chargeId, amountCents],
  );
  if (affected !== 1) throw new Error(`charge ${chargeId} was not found to release a refund's ${amountCents}`);
}

/** The provider's own refunded total from its events: it only grows (an older event never lowers it). */
export async function recordProviderRefundedTotal(em: EntityManager, chargeId: string, refundedCents: number): Promise<void> {
  await em.query(`UPDATE charges SET refunded_cents = GREATEST(refunded_cents, $2), updated_at = now() WHERE id = $1`, [chargeId, refundedCents]);
}

/**
 * A dispute's state from the provider. Events arrive out of order: one older than the status kept never moves it
 * (an `appeal_*` delivered after its appeal was finally lost would reopen it), and, with no time or the same
 * second, a closed outcome is kept over an open one unless the new one closes too, or appeals a lost one (Stripe's
 * `appeal_*`, which reopen it). `charge_refunded` closed disputes in API versions before the pinned one; rows that
 * hold it stay closed.
 */
export async function recordDisputeStatus(em: EntityManager, chargeId: string, dispute: { status: string; closed: boolean; occurredAt: Date | null }): Promise<void> {
  await em.query(
    `UPDATE charges SET dispute_status = $2, dispute_status_at = GREATEST(dispute_status_at, $4::timestamptz), updated_at = now()
      WHERE id = $1 AND ($4::timestamptz IS NULL OR dispute_status_at IS NULL OR dispute_status_at <= $4::timestamptz)
        AND (dispute_status IS NULL OR $3 OR ($2 LIKE 'appeal\\_%' AND dispute_status = 'lost')
             OR dispute_status NOT IN ('won', 'lost', 'warning_closed', 'prevented', 'charge_refunded'))`,
    [chargeId, dispute.status, dispute.closed, dispute.occurredAt],
  );
}

/**
 * Reconciliation's totals: the refunded and disputed amounts of every charge a statement's movements (in
 * `stagingTable`, for `provider`) touch, recomputed from all movement lines ever kept, so re-running a day never
 * counts twice. A refund's reversal (`refund_failure`, positive) takes its refund back out of the refunded amount
 * once its refund line is kept too, whichever day each was read (alone, it would make the total negative). Only rows
 * whose totals change are written.
 */
export async function recomputeStatementMovedBack(client: PoolClient, stagingTable: string, provider: string): Promise<void> {
  await client.query(
    `UPDATE charges c
        SET provider_refunded_cents = t.refunded, provider_disputed_cents = t.disputed
       FROM (SELECT m.charge_id,
                    COALESCE(-sum(m.amount_cents) FILTER (WHERE m.kind = 'refund' OR m.reverses_a_kept_refund), 0) AS refunded,
                    COALESCE(-sum(m.amount_cents) FILTER (WHERE m.kind IN ('dispute', 'dispute_reversal')), 0) AS disputed
               FROM (SELECT v.*, v.kind = 'refund_failure'
                                 AND EXISTS (SELECT 1 FROM reconciliation_money_movements r
                                              WHERE r.charge_id = v.charge_id AND r.kind = 'refund' AND r.reference = v.reference) AS reverses_a_kept_refund
                       FROM reconciliation_money_movements v) m
              WHERE m.charge_id IN (SELECT k.charge_id FROM reconciliation_money_movements k
                                      JOIN ${stagingTable} s ON s.line_id = k.line_id AND k.provider = $1
                                     WHERE s.kind IN ('refund','refund_failure','dispute','dispute_reversal'))
              GROUP BY m.charge_id) t
      WHERE c.id = t.charge_id
        AND (c.provider_refunded_cents, c.provider_disputed_cents) IS DISTINCT FROM (t.refunded, t.disputed)`,
    [provider],
  );
}
