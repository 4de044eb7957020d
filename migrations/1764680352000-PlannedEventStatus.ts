import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's status and object functions (MerchantEvents) were LANGUAGE sql with CTEs: PostgreSQL cannot inline
 * those, and a non-inlined SQL function is planned again on every call. At commit, every charge paid that planning:
 * charge_public_status alone took 1.1 ms a call in bench:submit, the whole outbox 2.5 ms a charge. As PL/pgSQL the
 * same queries keep their plans for the session. The queries are unchanged, word for word; only the wrapper is.
 * test/event-status-rules.test.ts holds them to the TypeScript rules, as before.
 */
const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const PLANNED = `
CREATE OR REPLACE FUNCTION refund_public_status(p_refund uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT CASE
    WHEN bool_or(a.status = 'succeeded') THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.refund_id = p_refund AND ri.state <> 'closed') THEN 'in_review'
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.refund_id = p_refund AND a.operation = 'refund');
END $$;

CREATE OR REPLACE FUNCTION payout_public_status(p_payout uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT CASE
    WHEN bool_or(a.status = 'succeeded' OR a.late_executed_at IS NOT NULL) THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.payout_id = p_payout AND x.operation = 'payout' AND ri.state <> 'closed') THEN 'in_review'
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.payout_id = p_payout AND a.operation = 'payout');
END $$;

CREATE OR REPLACE FUNCTION charge_public_status(p_charge uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (WITH a AS (SELECT status, late_captured_at FROM attempts WHERE charge_id = p_charge AND operation = 'charge'),
       r AS (SELECT amount_cents, refund_public_status(id) AS status FROM refunds WHERE charge_id = p_charge)
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM a) THEN 'created'
    WHEN EXISTS (SELECT 1 FROM a WHERE status = 'succeeded' OR late_captured_at IS NOT NULL) THEN
      CASE WHEN EXISTS (SELECT 1 FROM r WHERE status IN ('processing','in_review')) THEN 'refund_pending'
           WHEN COALESCE((SELECT sum(amount_cents) FROM r WHERE status = 'succeeded'), 0) = 0 THEN 'succeeded'
           WHEN (SELECT sum(amount_cents) FROM r WHERE status = 'succeeded') >= (SELECT amount_cents FROM charges WHERE id = p_charge) THEN 'refunded'
           ELSE 'partially_refunded' END
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.charge_id = p_charge AND x.operation = 'charge' AND ri.state <> 'closed') THEN 'in_review'
    WHEN EXISTS (SELECT 1 FROM a WHERE status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END);
END $$;

CREATE OR REPLACE FUNCTION charge_event_object(p_charge uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_build_object(
    'id', c.id, 'object', 'charge', 'merchantId', c.merchant_id, 'orderId', c.order_id,
    'amountCents', c.amount_cents, 'currency', c.currency, 'customerId', c.customer_id, 'provider', c.provider,
    'refundedCents', c.refunded_cents, 'disputed', c.dispute_status IS NOT NULL, 'disputeStatus', c.dispute_status,
    'createdAt', ${ISO('c.created_at')},
    'capturedBy', (SELECT jsonb_build_object(
                      'attemptId', a.id,
                      'providerChargeId', CASE WHEN a.status = 'succeeded' THEN a.provider_ref ELSE a.late_capture_provider_charge_id END,
                      'late', a.status <> 'succeeded')
                     FROM attempts a
                    WHERE a.charge_id = c.id AND a.operation = 'charge' AND (a.status = 'succeeded' OR a.late_captured_at IS NOT NULL)
                    ORDER BY (a.status = 'succeeded') DESC LIMIT 1))
  FROM charges c WHERE c.id = p_charge);
END $$;

CREATE OR REPLACE FUNCTION refund_event_object(p_refund uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_build_object(
    'id', r.id, 'object', 'refund', 'chargeId', r.charge_id, 'amountCents', r.amount_cents, 'currency', trim(r.currency),
    'reason', r.reason, 'createdAt', ${ISO('r.created_at')})
  FROM refunds r WHERE r.id = p_refund);
END $$;

CREATE OR REPLACE FUNCTION payout_event_object(p_payout uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_build_object(
    'id', p.id, 'object', 'payout', 'accountId', p.account_id, 'amountCents', p.amount_cents, 'currency', trim(p.currency),
    'pixKeyType', p.pix_key_type, 'description', p.description, 'createdAt', ${ISO('p.created_at')})
  FROM payouts p WHERE p.id = p_payout);
END $$;`;

export class PlannedEventStatus1764680352000 implements MigrationInterface {
  name = 'PlannedEventStatus1764680352000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(PLANNED);
  }

  // Nothing to undo: the queries are the previous ones, so the PL/pgSQL wrappers answer exactly as the SQL ones
  // did, and MerchantEvents' down drops them by name whichever language they are in.
  async down(): Promise<void> {}
}
