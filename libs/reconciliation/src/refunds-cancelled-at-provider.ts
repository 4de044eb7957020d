import type { PoolClient } from 'pg';
import { recordMissingDivergences, type MatchScope } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';

/**
 * Our refunds recorded as succeeded that the provider shows CANCELLED (a `refund_cancelled` line: Asaas cancels
 * refunds, DONE ones included), where no DONE refund under the same refund id is staged beside it, or shows failed
 * (a `refund_failure` line: Stripe reverses a refund that failed after its refund line): the customer never got
 * the money back while our cap and views say refunded. The cap is not given back here: a person decides. Only a person can say what happened, so the
 * attempt is never rewritten; the divergence carries the evidence. Keyed by the refund's id, so every run that
 * reads the payment (its refund's day, the cancellation's) updates one divergence. Dated like a refund line
 * (refundLineOfRun): a cancelled refund made after the run's day is a later day's.
 */
export async function recordRefundsCancelledAtProvider(client: PoolClient, scope: MatchScope): Promise<void> {
  await recordMissingDivergences(
    client,
    scope,
    `SELECT 'refund_cancelled_at_provider' AS kind, s.reference AS subject, s.reference AS provider_charge_id, r.charge_id AS owner_id,
            a.id AS attempt_id, r.amount_cents, r.currency::text AS currency, s.created_at AS seen_at, s.line_id,
            jsonb_build_object('cancelledAtProvider', true, 'providerStatus', s.provider_status, 'lineId', s.line_id, 'lineKind', s.kind,
                               'paymentProviderChargeId', s.provider_charge_id, 'refundId', r.id, 'refundCreatedAtProvider', s.created_at,
                               'madeBeforeItsDay', s.created_at < $4,
                               'providerAmountCents', -s.amount_cents, 'providerCurrency', s.currency, 'attemptStatus', a.status,
                               'attemptCreatedAt', a.created_at, 'resolvedBy', a.resolved_by, 'resolvedAt', a.resolved_at) AS detail
       FROM ${STAGING_TABLE} s
       -- By the attempt the line names, or (Stripe's report, which carries no refund metadata) by the refund id.
       JOIN attempts a ON a.provider = $2 AND a.operation = 'refund'
                      AND ((a.id = s.attempt_ref AND (a.provider_ref = s.reference OR a.provider_ref IS NULL))
                           OR (s.attempt_ref IS NULL AND a.provider_ref = s.reference))
       JOIN refunds r ON r.id = a.refund_id
      WHERE s.created_at < $5 AND a.status = 'succeeded'
        AND (s.kind = 'refund_failure'
             OR (s.kind = 'refund_cancelled' AND NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} d WHERE d.kind = 'refund' AND d.reference = s.reference)))`,
    'charge_id',
  );
}
