import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant lists filter charges, refunds and payouts by their public status, which is derived (attempts, review
 * items, refunds), never a column. `list_statuses` stores it so a filter is an index range: one row per object,
 * with the scope a list is read in (the merchant; a payout's account) and the object's created_at, so
 * (type, scope, status, created_at, id), read backwards, serves "newest first of one status" as one index scan.
 *
 * It is kept by the outbox's commit step (MerchantEvents), which already derives each touched object's status
 * under that object's event_objects row lock: the sync functions now also write that status here, one UPDATE in
 * the committing transaction, no round trip. Changes the outbox does not announce still count for a list: an
 * attempt's creation (a charge goes created → processing) and a refund's creation (its charge refund_pending)
 * are noted as list-only keys (`…!`), which the flush syncs under the same lock without emitting an event. Rows
 * are born with the object (a row trigger: created for a charge, processing for a refund or payout).
 *
 * A separate table rather than a column on charges: the commit step would otherwise UPDATE a charge row that a
 * concurrent submit holds FOR UPDATE while waiting for the same event_objects lock (a deadlock), and the charges'
 * one writer stays their store. The database is its only writer (test/events-tables-owner.test.ts).
 */
export class MerchantListStatuses1764680390000 implements MigrationInterface {
  name = 'MerchantListStatuses1764680390000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE list_statuses (
        object_type text NOT NULL CHECK (object_type IN ('charge','refund','payout')),
        object_id uuid NOT NULL,
        scope_id uuid NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (object_type, object_id)
      )`);
    await q.query(`CREATE INDEX ix_list_statuses_page ON list_statuses (object_type, scope_id, status, created_at, object_id)`);
    // The unfiltered pages and the customer filter, with the id as the tie-break the cursor carries. Ascending (read
    // backwards for newest first), so the entities can declare them and migration:generate proposes nothing.
    await q.query(`CREATE INDEX ix_charges_merchant_page ON charges (merchant_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_charges_merchant_customer_page ON charges (merchant_id, customer_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_refunds_merchant_page ON refunds (merchant_id, created_at, id) WHERE merchant_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_refunds_charge_page ON refunds (charge_id, created_at, id) WHERE charge_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_payouts_account_page ON payouts (account_id, created_at, id)`);
    await q.query(FUNCTIONS);
    await q.query(NEW_SYNC);
    await q.query(NEW_FLUSH);
    await q.query(TRIGGERS);
    await q.query(`INSERT INTO list_statuses SELECT 'charge', id, merchant_id, charge_public_status(id), created_at FROM charges`);
    await q.query(`INSERT INTO list_statuses SELECT 'refund', id, merchant_id, refund_public_status(id), created_at FROM refunds WHERE merchant_id IS NOT NULL`);
    await q.query(`INSERT INTO list_statuses SELECT 'payout', id, account_id, payout_public_status(id), created_at FROM payouts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER list_touch_attempt_creation ON attempt_transitions`);
    await q.query(`DROP TRIGGER list_after_attempt_creation ON attempt_transitions`);
    await q.query(`DROP TRIGGER list_touch_refund_creation ON refunds`);
    await q.query(`DROP TRIGGER list_after_refund_creation ON refunds`);
    for (const table of ['charges', 'refunds', 'payouts']) await q.query(`DROP TRIGGER list_status_born ON ${table}`);
    await q.query(ORIGINAL);
    await q.query(`DROP FUNCTION list_on_attempt_creation(), list_on_refund_creation(), list_status_born(), list_sync(text, uuid), list_status_set(text, uuid, text), list_touch(text)`);
    await q.query(`DROP INDEX ix_charges_merchant_page, ix_charges_merchant_customer_page, ix_refunds_merchant_page, ix_refunds_charge_page, ix_payouts_account_page`);
    await q.query(`DROP TABLE list_statuses`);
  }
}

const FUNCTIONS = `
CREATE FUNCTION list_status_set(p_type text, p_id uuid, p_status text) RETURNS void LANGUAGE sql AS $$
  UPDATE list_statuses SET status = p_status WHERE object_type = p_type AND object_id = p_id AND status IS DISTINCT FROM p_status
$$;

-- A list-only key: the same lock as the outbox's sync, then the status in a later statement (a new snapshot), so
-- a commit that waited for another on this object stores what that one committed. No event.
CREATE FUNCTION list_sync(p_type text, p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM list_statuses WHERE object_type = p_type AND object_id = p_id) THEN RETURN; END IF;
  INSERT INTO event_objects (object_type, object_id) VALUES (p_type, p_id) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM event_objects WHERE object_type = p_type AND object_id = p_id FOR UPDATE;
  PERFORM list_status_set(p_type, p_id, CASE p_type
    WHEN 'charge' THEN charge_public_status(p_id) WHEN 'refund' THEN refund_public_status(p_id) ELSE payout_public_status(p_id) END);
END $$;

CREATE FUNCTION list_touch(p_keys text) RETURNS void LANGUAGE sql AS $$
  SELECT set_config('charge_once.event_objects', COALESCE(current_setting('charge_once.event_objects', true), '') || p_keys, true)
$$;

CREATE FUNCTION list_status_born() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'charges' THEN
    INSERT INTO list_statuses VALUES ('charge', NEW.id, NEW.merchant_id, 'created', NEW.created_at);
  ELSIF TG_TABLE_NAME = 'payouts' THEN
    INSERT INTO list_statuses VALUES ('payout', NEW.id, NEW.account_id, 'processing', NEW.created_at);
  ELSIF NEW.merchant_id IS NOT NULL THEN
    -- A refund of a proposal belongs to no merchant and is in no merchant's list.
    INSERT INTO list_statuses VALUES ('refund', NEW.id, NEW.merchant_id, 'processing', NEW.created_at);
  END IF;
  RETURN NULL;
END $$;

-- The attempt's creation row: its object (and a refund's charge) may change status, but the outbox announces nothing.
CREATE FUNCTION list_on_attempt_creation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  a record;
BEGIN
  SELECT operation, charge_id, refund_id, payout_id INTO a FROM attempts WHERE id = NEW.attempt_id;
  PERFORM list_touch(CASE a.operation
    WHEN 'charge' THEN '3:' || a.charge_id || '!,'
    WHEN 'refund' THEN '1:' || a.refund_id || '!,' || COALESCE('3:' || (SELECT charge_id FROM refunds WHERE id = a.refund_id) || '!,', '')
    WHEN 'payout' THEN '2:' || a.payout_id || '!,'
    ELSE '' END);
  RETURN NULL;
END $$;

CREATE FUNCTION list_on_refund_creation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.charge_id IS NOT NULL THEN PERFORM list_touch('3:' || NEW.charge_id || '!,'); END IF;
  RETURN NULL;
END $$;`;

const NEW_SYNC = `
CREATE OR REPLACE FUNCTION sync_charge_events(p_charge uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_type text; v_merchant uuid; v_object jsonb;
BEGIN
  INSERT INTO event_objects (object_type, object_id) VALUES ('charge', p_charge) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'charge' AND object_id = p_charge FOR UPDATE;
  v_status := charge_public_status(p_charge);
  PERFORM list_status_set('charge', p_charge, v_status);
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
CREATE OR REPLACE FUNCTION sync_refund_events(p_refund uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_merchant uuid;
BEGIN
  SELECT merchant_id INTO v_merchant FROM refunds WHERE id = p_refund;
  -- A refund of a proposal (a capture no charge of ours holds) belongs to no merchant: finance follows it.
  IF v_merchant IS NULL THEN RETURN; END IF;
  INSERT INTO event_objects (object_type, object_id) VALUES ('refund', p_refund) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'refund' AND object_id = p_refund FOR UPDATE;
  v_status := refund_public_status(p_refund);
  PERFORM list_status_set('refund', p_refund, v_status);
  IF v_status IS DISTINCT FROM v_last AND v_status IN ('succeeded','failed') THEN
    PERFORM emit_event(v_merchant, 'refund.' || v_status, 'refund', p_refund, refund_event_object(p_refund), v_status);
  END IF;
END $$;
CREATE OR REPLACE FUNCTION sync_payout_events(p_payout uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_last text; v_status text; v_merchant uuid;
BEGIN
  INSERT INTO event_objects (object_type, object_id) VALUES ('payout', p_payout) ON CONFLICT DO NOTHING;
  SELECT last_status INTO v_last FROM event_objects WHERE object_type = 'payout' AND object_id = p_payout FOR UPDATE;
  v_status := payout_public_status(p_payout);
  PERFORM list_status_set('payout', p_payout, v_status);
  IF v_status IS NOT DISTINCT FROM v_last OR v_status NOT IN ('succeeded','failed','in_review') THEN RETURN; END IF;
  SELECT la.merchant_id INTO v_merchant FROM payouts p JOIN ledger_accounts la ON la.id = p.account_id WHERE p.id = p_payout;
  PERFORM emit_event(v_merchant, CASE v_status WHEN 'succeeded' THEN 'payout.sent' ELSE 'payout.' || v_status END,
                     'payout', p_payout, payout_event_object(p_payout), v_status);
END $$;`;

// As before, plus list-only keys: a key and its list-only twin are one object (synced once, announced if either
// asked for it), still in one global order by type then id, so two commits never take two locks in opposite orders.
const NEW_FLUSH = `
CREATE OR REPLACE FUNCTION events_flush() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_touched text := current_setting('charge_once.event_objects', true);
  v_key text;
  v_announce boolean;
  v_id uuid;
BEGIN
  IF v_touched IS NULL OR v_touched = '' THEN RETURN; END IF;
  PERFORM set_config('charge_once.event_objects', '', true);
  FOR v_key, v_announce IN
    SELECT rtrim(k, '!'), bool_or(right(k, 1) <> '!') FROM unnest(string_to_array(rtrim(v_touched, ','), ',')) AS k
     GROUP BY 1 ORDER BY 1
  LOOP
    v_id := split_part(v_key, ':', 2)::uuid;
    CASE split_part(v_key, ':', 1)
      WHEN '1' THEN IF v_announce THEN PERFORM sync_refund_events(v_id); ELSE PERFORM list_sync('refund', v_id); END IF;
      WHEN '2' THEN IF v_announce THEN PERFORM sync_payout_events(v_id); ELSE PERFORM list_sync('payout', v_id); END IF;
      WHEN '3' THEN IF v_announce THEN PERFORM sync_charge_events(v_id); ELSE PERFORM list_sync('charge', v_id); END IF;
    END CASE;
  END LOOP;
END $$;`;

const TRIGGERS = `
CREATE TRIGGER list_status_born AFTER INSERT ON charges FOR EACH ROW EXECUTE FUNCTION list_status_born();
CREATE TRIGGER list_status_born AFTER INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION list_status_born();
CREATE TRIGGER list_status_born AFTER INSERT ON payouts FOR EACH ROW EXECUTE FUNCTION list_status_born();
CREATE TRIGGER list_touch_attempt_creation AFTER INSERT ON attempt_transitions
  FOR EACH ROW WHEN (NEW.from_status IS NULL) EXECUTE FUNCTION list_on_attempt_creation();
CREATE CONSTRAINT TRIGGER list_after_attempt_creation AFTER INSERT ON attempt_transitions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.from_status IS NULL) EXECUTE FUNCTION events_at_commit();
CREATE TRIGGER list_touch_refund_creation AFTER INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION list_on_refund_creation();
CREATE CONSTRAINT TRIGGER list_after_refund_creation AFTER INSERT ON refunds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_at_commit();`;

// MerchantEvents' sync functions and flush, word for word: what down restores.
const ORIGINAL = `
CREATE OR REPLACE FUNCTION sync_charge_events(p_charge uuid) RETURNS void LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION sync_refund_events(p_refund uuid) RETURNS void LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION sync_payout_events(p_payout uuid) RETURNS void LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION events_flush() RETURNS void LANGUAGE plpgsql AS $$
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
END $$
;`;
