import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant events as a transactional outbox the database writes itself. Every fact a merchant cares about is a row
 * in attempt_transitions, attempts (late captures and late transfers), review_items or ledger_entries; a trigger
 * notes the charge, refund or payout each row touched, and a deferred constraint trigger runs at COMMIT, inside the
 * same transaction, re-derives the public status of each and writes an event when that status changed. So a rolled-back change
 * leaves no event, a committed one always has its event, and no new code path can forget one: the only writer of
 * `events` is `emit_event` below, and the owner test keeps application code off the table.
 *
 * Running at commit means an event shows what committed, not an intermediate state of the transaction: a reviewer's
 * decision that closes the item and fails the attempt is one `charge.failed`, never a `charge.processing` first.
 *
 * `xact_id` is the writing transaction's id. The feed reads only events older than the oldest transaction still
 * running (`pg_snapshot_xmin`), ordered by (xact_id, seq): a transaction that took a lower seq but commits later is
 * still running when the reader looks, so the cursor waits for it instead of skipping it.
 *
 * The status rules mirror `deriveChargeStatus` / `deriveRefundStatus` and the payout view; a test holds the two
 * to the same answer.
 */
export class MerchantEvents1764680330000 implements MigrationInterface {
  name = 'MerchantEvents1764680330000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        merchant_id uuid NOT NULL REFERENCES merchants(id),
        url text NOT NULL,
        description text,
        event_types text[],
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text CHECK (disabled_reason IN ('merchant','gone','failing')),
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        CHECK (enabled = (disabled_reason IS NULL))
      )`);
    await q.query(`CREATE INDEX ix_webhook_endpoints_merchant ON webhook_endpoints (merchant_id, created_at) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE events (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        merchant_id uuid NOT NULL REFERENCES merchants(id),
        type text NOT NULL,
        object_type text NOT NULL CHECK (object_type IN ('charge','refund','payout','account','webhook_endpoint')),
        object_id uuid NOT NULL,
        object_version integer NOT NULL CHECK (object_version > 0),
        object jsonb NOT NULL,
        xact_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (object_type, object_id, object_version)
      )`);
    await q.query(`CREATE INDEX ix_events_feed ON events (merchant_id, xact_id, seq)`);
    await q.query(`CREATE INDEX ix_events_object ON events (object_id, object_version)`);
    await q.query(`CREATE INDEX ix_events_created ON events (created_at)`);

    // One row per object that has had an event: its version counter and the status its last event announced.
    // Its row lock serialises two commits that touch one object, so versions never collide or go backwards.
    await q.query(`
      CREATE TABLE event_objects (
        object_type text NOT NULL,
        object_id uuid NOT NULL,
        version integer NOT NULL DEFAULT 0,
        last_status text,
        PRIMARY KEY (object_type, object_id)
      )`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES events(id),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
        merchant_id uuid NOT NULL REFERENCES merchants(id),
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','delivered','abandoned')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_expires_at timestamptz,
        leased_by text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, endpoint_id)
      )`);
    await q.query(`CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at)`);
    // The deliverer's claim: per endpoint, its due rows oldest first (and how many it has in flight).
    await q.query(`CREATE INDEX ix_webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE state = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries(id),
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        http_status integer,
        error text,
        response_excerpt text,
        UNIQUE (delivery_id, attempt)
      )`);

    await q.query(STATUS_FUNCTIONS);
    await q.query(OBJECT_FUNCTIONS);
    await q.query(EMIT_FUNCTIONS);
    await q.query(TRIGGERS);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [trigger, table] of [
      ['events_touch_attempt_transition', 'attempt_transitions'], ['events_after_attempt_transition', 'attempt_transitions'],
      ['events_touch_late_fact', 'attempts'], ['events_after_late_fact', 'attempts'],
      ['events_touch_review_item', 'review_items'], ['events_after_review_item', 'review_items'], ['events_after_credit', 'ledger_entries'],
    ]) await q.query(`DROP TRIGGER ${trigger} ON ${table}`);
    await q.query(`DROP FUNCTION events_on_attempt_transition(), events_on_late_fact(), events_on_review_item(), events_at_commit(), events_on_credit()`);
    await q.query(`DROP FUNCTION events_flush(), events_touch_attempt(uuid), sync_charge_events(uuid), sync_refund_events(uuid), sync_payout_events(uuid)`);
    await q.query(`DROP FUNCTION emit_event(uuid, text, text, uuid, jsonb, text, uuid)`);
    await q.query(`DROP FUNCTION charge_event_object(uuid), refund_event_object(uuid), payout_event_object(uuid)`);
    await q.query(`DROP FUNCTION charge_public_status(uuid), refund_public_status(uuid), payout_public_status(uuid)`);
    await q.query(`DROP TABLE webhook_delivery_attempts, webhook_deliveries, event_objects, events, webhook_endpoints`);
  }
}

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const STATUS_FUNCTIONS = `
CREATE FUNCTION refund_public_status(p_refund uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN bool_or(a.status = 'succeeded') THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.refund_id = p_refund AND ri.state <> 'closed') THEN 'in_review'
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.refund_id = p_refund AND a.operation = 'refund'
$$;

-- A transfer executed after we failed its attempt is money that left: the payout was paid.
CREATE FUNCTION payout_public_status(p_payout uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN bool_or(a.status = 'succeeded' OR a.late_executed_at IS NOT NULL) THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.payout_id = p_payout AND x.operation = 'payout' AND ri.state <> 'closed') THEN 'in_review'
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.payout_id = p_payout AND a.operation = 'payout'
$$;

CREATE FUNCTION charge_public_status(p_charge uuid) RETURNS text LANGUAGE sql STABLE AS $$
  WITH a AS (SELECT status, late_captured_at FROM attempts WHERE charge_id = p_charge AND operation = 'charge'),
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
    ELSE 'failed' END
$$;`;

const OBJECT_FUNCTIONS = `
CREATE FUNCTION charge_event_object(p_charge uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
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
  FROM charges c WHERE c.id = p_charge
$$;

CREATE FUNCTION refund_event_object(p_refund uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', r.id, 'object', 'refund', 'chargeId', r.charge_id, 'amountCents', r.amount_cents, 'currency', trim(r.currency),
    'reason', r.reason, 'createdAt', ${ISO('r.created_at')})
  FROM refunds r WHERE r.id = p_refund
$$;

CREATE FUNCTION payout_event_object(p_payout uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p.id, 'object', 'payout', 'accountId', p.account_id, 'amountCents', p.amount_cents, 'currency', trim(p.currency),
    'pixKeyType', p.pix_key_type, 'description', p.description, 'createdAt', ${ISO('p.created_at')})
  FROM payouts p WHERE p.id = p_payout
$$;`;

const EMIT_FUNCTIONS = `
-- The one writer of events: the next version of the object, the event, one delivery per endpoint that wants it,
-- and the wake-ups for the deliverer and for long polls (NOTIFY is delivered at commit, never before).
-- p_endpoint: an event for one endpoint only (a ping), never fanned out to the others.
CREATE FUNCTION emit_event(p_merchant uuid, p_type text, p_object_type text, p_object_id uuid, p_object jsonb, p_status text, p_endpoint uuid DEFAULT NULL)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid := gen_random_uuid();
  v_version integer;
  v_deliveries integer;
BEGIN
  INSERT INTO event_objects AS o (object_type, object_id, version, last_status) VALUES (p_object_type, p_object_id, 1, p_status)
  ON CONFLICT (object_type, object_id) DO UPDATE SET version = o.version + 1, last_status = COALESCE(EXCLUDED.last_status, o.last_status)
  RETURNING version INTO v_version;
  INSERT INTO events (id, merchant_id, type, object_type, object_id, object_version, object)
  VALUES (v_id, p_merchant, p_type, p_object_type, p_object_id, v_version,
          CASE WHEN p_status IS NULL THEN p_object ELSE p_object || jsonb_build_object('status', p_status) END);
  INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id)
  SELECT v_id, e.id, e.merchant_id FROM webhook_endpoints e
   WHERE e.merchant_id = p_merchant AND e.enabled AND e.deleted_at IS NULL
     AND CASE WHEN p_endpoint IS NULL THEN e.event_types IS NULL OR p_type = ANY (e.event_types) ELSE e.id = p_endpoint END;
  GET DIAGNOSTICS v_deliveries = ROW_COUNT;
  -- Each wake-up only where someone listens for it: the deliverer when there is something to deliver, a long poll
  -- when a charge changed. Identical notifications of one transaction are folded into one by PostgreSQL.
  IF v_deliveries > 0 THEN PERFORM pg_notify('charge_once_deliveries', ''); END IF;
  IF p_object_type = 'charge' THEN PERFORM pg_notify('charge_once_charges', p_object_id::text); END IF;
  RETURN v_id;
END $$;

-- Locks the object's counter row first, then derives the status in a later statement (a new snapshot), so a
-- commit that waited for another one on the same object sees what that one committed.
CREATE FUNCTION sync_charge_events(p_charge uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_type text; v_merchant uuid; v_object jsonb;
BEGIN
  INSERT INTO event_objects (object_type, object_id) VALUES ('charge', p_charge) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'charge' AND object_id = p_charge FOR UPDATE;
  v_status := charge_public_status(p_charge);
  IF v_status IS NOT DISTINCT FROM v_last THEN RETURN; END IF;
  v_object := charge_event_object(p_charge);
  v_type := CASE v_status
    WHEN 'processing' THEN 'charge.processing'
    WHEN 'in_review' THEN 'charge.in_review'
    WHEN 'failed' THEN 'charge.failed'
    WHEN 'partially_refunded' THEN 'charge.partially_refunded'
    WHEN 'refunded' THEN 'charge.refunded'
    WHEN 'succeeded' THEN CASE WHEN (v_object->'capturedBy'->>'late')::boolean THEN 'charge.captured_late' ELSE 'charge.succeeded' END
    END;
  -- created and refund_pending announce nothing (the refund's own events do): the last announced status stays.
  IF v_type IS NULL THEN RETURN; END IF;
  SELECT merchant_id INTO v_merchant FROM charges WHERE id = p_charge;
  PERFORM emit_event(v_merchant, v_type, 'charge', p_charge, v_object, v_status);
END $$;

CREATE FUNCTION sync_refund_events(p_refund uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_merchant uuid;
BEGIN
  SELECT merchant_id INTO v_merchant FROM refunds WHERE id = p_refund;
  -- A refund of a proposal (a capture no charge of ours holds) belongs to no merchant: finance follows it.
  IF v_merchant IS NULL THEN RETURN; END IF;
  INSERT INTO event_objects (object_type, object_id) VALUES ('refund', p_refund) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'refund' AND object_id = p_refund FOR UPDATE;
  v_status := refund_public_status(p_refund);
  IF v_status IS DISTINCT FROM v_last AND v_status IN ('succeeded','failed') THEN
    PERFORM emit_event(v_merchant, 'refund.' || v_status, 'refund', p_refund, refund_event_object(p_refund), v_status);
  END IF;
END $$;

CREATE FUNCTION sync_payout_events(p_payout uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_merchant uuid;
BEGIN
  INSERT INTO event_objects (object_type, object_id) VALUES ('payout', p_payout) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'payout' AND object_id = p_payout FOR UPDATE;
  v_status := payout_public_status(p_payout);
  IF v_status IS NOT DISTINCT FROM v_last OR v_status NOT IN ('succeeded','failed','in_review') THEN RETURN; END IF;
  SELECT la.merchant_id INTO v_merchant FROM payouts p JOIN ledger_accounts la ON la.id = p.account_id WHERE p.id = p_payout;
  PERFORM emit_event(v_merchant, CASE v_status WHEN 'succeeded' THEN 'payout.sent' ELSE 'payout.' || v_status END,
                     'payout', p_payout, payout_event_object(p_payout), v_status);
END $$;

-- Remembers, for this transaction only (a subtransaction that rolls back forgets it too), each object whose
-- public status a row may have changed: a refund's charge with it, since the charge's status counts its refunds.
CREATE FUNCTION events_touch_attempt(p_attempt uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a record;
  v_keys text;
BEGIN
  SELECT operation, charge_id, refund_id, payout_id INTO a FROM attempts WHERE id = p_attempt;
  v_keys := CASE a.operation
    WHEN 'charge' THEN '3:' || a.charge_id
    WHEN 'refund' THEN '1:' || a.refund_id || COALESCE(',3:' || (SELECT charge_id FROM refunds WHERE id = a.refund_id), '')
    WHEN 'payout' THEN '2:' || a.payout_id
  END;
  IF v_keys IS NOT NULL THEN
    PERFORM set_config('charge_once.event_objects', COALESCE(current_setting('charge_once.event_objects', true), '') || v_keys || ',', true);
  END IF;
END $$;

-- At commit, once per transaction: every touched object in one global order (refunds, payouts, charges, each by
-- id), so two commits that touch the same objects take their counters in the same order and never deadlock. A
-- refund's own event comes before the charge status it changed.
CREATE FUNCTION events_flush() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_touched text := current_setting('charge_once.event_objects', true);
  v_key text;
BEGIN
  IF v_touched IS NULL OR v_touched = '' THEN RETURN; END IF;
  PERFORM set_config('charge_once.event_objects', '', true);
  FOR v_key IN SELECT DISTINCT k FROM unnest(string_to_array(rtrim(v_touched, ','), ',')) AS k ORDER BY k LOOP
    CASE split_part(v_key, ':', 1)
      WHEN '1' THEN PERFORM sync_refund_events(split_part(v_key, ':', 2)::uuid);
      WHEN '2' THEN PERFORM sync_payout_events(split_part(v_key, ':', 2)::uuid);
      WHEN '3' THEN PERFORM sync_charge_events(split_part(v_key, ':', 2)::uuid);
    END CASE;
  END LOOP;
END $$;`;

const TRIGGERS = `
CREATE FUNCTION events_on_attempt_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM events_touch_attempt(NEW.attempt_id); RETURN NULL; END $$;

CREATE FUNCTION events_on_late_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM events_touch_attempt(NEW.id); RETURN NULL; END $$;

CREATE FUNCTION events_on_review_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.attempt_id IS NOT NULL THEN PERFORM events_touch_attempt(NEW.attempt_id); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION events_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM events_flush(); RETURN NULL; END $$;

-- A credit is a fact of its own, not a status: its entry already says the balance it left.
CREATE FUNCTION events_on_credit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_account record;
BEGIN
  SELECT id, merchant_id, currency INTO v_account FROM ledger_accounts WHERE id = NEW.account_id;
  PERFORM emit_event(v_account.merchant_id, 'account.credited', 'account', v_account.id,
    jsonb_build_object('id', v_account.id, 'object', 'account', 'merchantId', v_account.merchant_id, 'currency', trim(v_account.currency),
                       'availableCents', NEW.available_after_cents, 'reservedCents', NEW.reserved_after_cents, 'owedCents', NEW.owed_after_cents,
                       'credit', jsonb_build_object('amountCents', NEW.amount_cents, 'reference', NEW.reference, 'createdAt', ${ISO('NEW.created_at')})),
    NULL);
  RETURN NULL;
END $$;

-- Each fact table has two triggers: one notes the touched object as the row is written, one (deferred) turns
-- every noted object into its events at COMMIT. The creation row (from_status NULL) is not news: a charge is
-- processing from its first unknown on.
CREATE TRIGGER events_touch_attempt_transition AFTER INSERT ON attempt_transitions
  FOR EACH ROW WHEN (NEW.from_status IS NOT NULL) EXECUTE FUNCTION events_on_attempt_transition();
CREATE CONSTRAINT TRIGGER events_after_attempt_transition AFTER INSERT ON attempt_transitions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.from_status IS NOT NULL) EXECUTE FUNCTION events_at_commit();
CREATE TRIGGER events_touch_late_fact AFTER UPDATE OF late_captured_at, late_executed_at ON attempts
  FOR EACH ROW WHEN ((OLD.late_captured_at IS NULL AND NEW.late_captured_at IS NOT NULL) OR (OLD.late_executed_at IS NULL AND NEW.late_executed_at IS NOT NULL))
  EXECUTE FUNCTION events_on_late_fact();
CREATE CONSTRAINT TRIGGER events_after_late_fact AFTER UPDATE OF late_captured_at, late_executed_at ON attempts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.late_captured_at IS NULL AND NEW.late_captured_at IS NOT NULL) OR (OLD.late_executed_at IS NULL AND NEW.late_executed_at IS NOT NULL))
  EXECUTE FUNCTION events_at_commit();
CREATE TRIGGER events_touch_review_item AFTER INSERT OR UPDATE OF state ON review_items
  FOR EACH ROW EXECUTE FUNCTION events_on_review_item();
CREATE CONSTRAINT TRIGGER events_after_review_item AFTER INSERT OR UPDATE OF state ON review_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_at_commit();
CREATE TRIGGER events_after_credit AFTER INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.kind = 'credit') EXECUTE FUNCTION events_on_credit();`;
