import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Once the provider holds a captured charge for any attempt of a charge, that charge never opens another
 * attempt. A late success for an attempt we had failed never rewrites its `failed` (a terminal state is never
 * rewritten); it is recorded beside it as a late capture (`late_captured_at`, with the provider charge that
 * captured). Three guarantees, all in the database:
 * - one success-bearing attempt per charge: `uq_charge_attempts_one_capture_per_charge` counts a succeeded
 *   attempt and a failed one with a late capture alike, so a second capture is refused however it is written;
 * - no attempt opens after a capture: a trigger refuses any new charge attempt of a captured charge, with
 *   SQLSTATE CO409 and the capturing attempt's id as DETAIL (the opening function's insert meets it too). The
 *   recorder of a capture and every opener take the charge row lock first, so the check cannot go stale;
 * - a late capture belongs to a failed charge attempt and names its provider charge.
 * Backfill: a failed charge attempt whose review items already carry a provider success for it (the first per charge),
 * unless the charge succeeded or has an open attempt, the money was already proposed for a refund, or another
 * attempt holds that provider charge: those stay before a person, and the nightly statement still reports them.
 */
export class ChargeCapturedOnce1764680180000 implements MigrationInterface {
  name = 'ChargeCapturedOnce1764680180000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE charge_attempts
        ADD COLUMN late_captured_at timestamptz,
        ADD COLUMN late_capture_provider_charge_id text,
        ADD CONSTRAINT charge_attempts_late_capture_check CHECK (
          (late_captured_at IS NULL AND late_capture_provider_charge_id IS NULL)
          OR (late_captured_at IS NOT NULL AND late_capture_provider_charge_id IS NOT NULL AND status = 'failed' AND operation = 'charge'))`);
    await q.query(`
      UPDATE charge_attempts a
         SET late_captured_at = r.created_at, late_capture_provider_charge_id = r.provider_charge_id
        FROM (SELECT DISTINCT ON (f.charge_id) f.attempt_id, f.created_at, f.provider_charge_id
                FROM (SELECT ca.charge_id, ri.attempt_id, ri.created_at,
                             COALESCE(jsonb_path_query_first(ri.evidence, '$.findings.fact ? (@.outcome == "succeeded")'),
                                      jsonb_path_query_first(ri.evidence, '$.laterFindings[*].findings.fact ? (@.outcome == "succeeded")'))->>'providerChargeId' AS provider_charge_id
                        FROM review_items ri JOIN charge_attempts ca ON ca.id = ri.attempt_id
                       WHERE ca.status = 'failed' AND ca.operation = 'charge') f
               WHERE f.provider_charge_id IS NOT NULL
                 -- Not where the charge already succeeded or still has an open attempt (a second capture is a person's),
                 -- nor where the money was already proposed for a refund, nor for a provider charge another attempt holds.
                 AND NOT EXISTS (SELECT 1 FROM charge_attempts s WHERE s.charge_id = f.charge_id AND s.operation = 'charge' AND s.status IN ('succeeded', 'pending', 'unknown'))
                 AND NOT EXISTS (SELECT 1 FROM refund_proposals p WHERE p.provider_charge_id = f.provider_charge_id AND p.state <> 'rejected')
                 AND NOT EXISTS (SELECT 1 FROM charge_attempts o WHERE o.provider_charge_id = f.provider_charge_id AND o.id <> f.attempt_id)
               ORDER BY f.charge_id, f.created_at) r
       WHERE a.id = r.attempt_id`);
    // A person answers a late capture by keeping it (fulfil the order) or refunding it through the charge.
    await q.query(`ALTER TABLE review_items DROP CONSTRAINT review_items_follow_up_check`);
    await q.query(`
      ALTER TABLE review_items ADD CONSTRAINT review_items_follow_up_check
        CHECK (follow_up IN ('refund_needed','no_action','recorded_externally','keep_capture','refund_capture'))`);
    await q.query(`DROP INDEX uq_charge_attempts_one_success_per_charge`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_capture_per_charge
        ON charge_attempts (charge_id) WHERE operation = 'charge' AND (status = 'succeeded' OR late_captured_at IS NOT NULL)`);
    // A provider charge is captured by one attempt at most; also how a webhook without our reference finds it.
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_late_capture_provider_charge_id
        ON charge_attempts (late_capture_provider_charge_id) WHERE late_capture_provider_charge_id IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION refuse_attempt_after_capture() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        captured uuid;
      BEGIN
        SELECT id INTO captured FROM charge_attempts
         WHERE charge_id = NEW.charge_id AND operation = 'charge' AND (status = 'succeeded' OR late_captured_at IS NOT NULL)
         LIMIT 1;
        IF captured IS NOT NULL THEN
          RAISE EXCEPTION 'charge % is already captured by attempt %', NEW.charge_id, captured
            USING ERRCODE = 'CO409', DETAIL = captured::text;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER charge_attempts_refuse_after_capture BEFORE INSERT ON charge_attempts
        FOR EACH ROW WHEN (NEW.operation = 'charge') EXECUTE FUNCTION refuse_attempt_after_capture()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER charge_attempts_refuse_after_capture ON charge_attempts`);
    await q.query(`DROP FUNCTION refuse_attempt_after_capture()`);
    await q.query(`UPDATE review_items SET follow_up = 'no_action' WHERE follow_up = 'keep_capture'`);
    await q.query(`UPDATE review_items SET follow_up = 'recorded_externally' WHERE follow_up = 'refund_capture'`);
    await q.query(`ALTER TABLE review_items DROP CONSTRAINT review_items_follow_up_check`);
    await q.query(`
      ALTER TABLE review_items ADD CONSTRAINT review_items_follow_up_check
        CHECK (follow_up IN ('refund_needed','no_action','recorded_externally'))`);
    await q.query(`DROP INDEX uq_charge_attempts_late_capture_provider_charge_id`);
    await q.query(`DROP INDEX uq_charge_attempts_one_capture_per_charge`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_charge
        ON charge_attempts (charge_id) WHERE status = 'succeeded' AND operation = 'charge'`);
    await q.query(`
      ALTER TABLE charge_attempts
        DROP CONSTRAINT charge_attempts_late_capture_check,
        DROP COLUMN late_capture_provider_charge_id,
        DROP COLUMN late_captured_at`);
  }
}
