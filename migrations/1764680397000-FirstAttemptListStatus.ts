import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charge's first attempt moved its list status from created to processing through the outbox's commit step: the
 * event_objects row inserted and locked, charge_public_status derived, then the UPDATE, on every submit. That
 * step is needed when another writer may change the status concurrently, under the lock that orders them; for a
 * charge still listed as created there is none. Listed as created means no attempt ever committed (each attempt's
 * creation moves it), so no review item, capture or refund of the charge exists to race with, and the opener's
 * row lock on the charge (plus the open-attempt unique index) excludes a second first attempt. Its status is then
 * processing, set in the creation row's own trigger by one conditional UPDATE; anything later in the same
 * transaction (a transition, a review item) still goes through the outbox and re-derives at commit. Every other
 * creation (a charge listed as failed or in review, a refund, a payout) keeps the list-only key. bench:submit
 * spent about 0.5 ms of PostgreSQL CPU per charge on the old path.
 *
 * It relies on what the outbox already relies on: every later status change in the transaction writes an
 * attempt_transitions row (or a review item, a refund), never a bare UPDATE of attempts.status
 * (test/attempt-tables-owner.test.ts keeps other code off those tables).
 */
const ATTEMPT_CREATION = (firstChargeShortcut: boolean) => `
CREATE OR REPLACE FUNCTION list_on_attempt_creation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  a record;
BEGIN
  SELECT operation, charge_id, refund_id, payout_id${firstChargeShortcut ? ', status' : ''} INTO a FROM attempts WHERE id = NEW.attempt_id;${
    firstChargeShortcut
      ? `
  IF a.operation = 'charge' AND a.status IN ('pending', 'unknown') THEN
    -- Every opener already holds it; a writer that did not could otherwise commit a status derived without this attempt.
    PERFORM 1 FROM charges WHERE id = a.charge_id FOR UPDATE;
    UPDATE list_statuses SET status = 'processing' WHERE object_type = 'charge' AND object_id = a.charge_id AND status = 'created';
    IF FOUND THEN RETURN NULL; END IF;
  END IF;`
      : ''
  }
  PERFORM list_touch(CASE a.operation
    WHEN 'charge' THEN '3:' || a.charge_id || '!,'
    WHEN 'refund' THEN '1:' || a.refund_id || '!,' || COALESCE('3:' || (SELECT charge_id FROM refunds WHERE id = a.refund_id) || '!,', '')
    WHEN 'payout' THEN '2:' || a.payout_id || '!,'
    ELSE '' END);
  RETURN NULL;
END $$;`;

export class FirstAttemptListStatus1764680397000 implements MigrationInterface {
  name = 'FirstAttemptListStatus1764680397000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(ATTEMPT_CREATION(true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(ATTEMPT_CREATION(false));
  }
}
