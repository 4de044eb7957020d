import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The table's constraints (renaming a unique or primary key constraint renames its index too); `%` is the table. */
const CONSTRAINTS = [
  '%_pkey', 'UQ_%_idempotency_key', 'UQ_%_provider_charge_id', '%_charge_id_fkey', '%_refund_id_fkey', '%_payout_id_fkey',
  '%_status_check', '%_operation_check', '%_owner_check', '%_late_capture_check', '%_late_execution_check',
  '%_awaiting_payment_check', '%_refund_id_check',
];
/** Its indexes that back no constraint. */
const INDEXES = [
  'uq_%_open_per_charge', 'uq_%_one_capture_per_charge', 'uq_%_late_capture_provider_charge_id', 'uq_%_late_execution_end_to_end_id',
  'uq_%_open_per_refund', 'uq_%_one_success_per_refund', 'uq_%_open_per_payout', 'uq_%_one_success_per_payout',
  'ix_%_payout', 'ix_%_charge', 'ix_%_open', 'ix_%_succeeded_created',
];

/**
 * The opening function of a charge's first send (migration 1764680150000), its body unchanged but for the table
 * it reads and writes; a PL/pgSQL body names tables by text, so a rename must re-create it.
 */
const openClaimedChargeAttempt = (table: string) => `
      CREATE OR REPLACE FUNCTION open_claimed_charge_attempt(
        p_charge_id uuid, p_known_attempts int, p_id uuid, p_idempotency_key uuid, p_provider text,
        p_payload text, p_payload_hash text, p_lease_ms double precision, p_actor text
      ) RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        created timestamptz;
      BEGIN
        -- Serialises openers of this charge: the lock AttemptOpener and lockChargeAndAttempt take first.
        PERFORM 1 FROM charges WHERE id = p_charge_id FOR UPDATE;
        IF NOT FOUND THEN RETURN NULL; END IF;
        -- Attempts are never deleted and a terminal one never changes: the same count means the same,
        -- all-terminal attempts the caller's rules judged. No open attempt, and no person deciding.
        IF (SELECT count(*) FROM ${table} WHERE charge_id = p_charge_id AND operation = 'charge') <> p_known_attempts
           OR EXISTS (SELECT 1 FROM ${table} WHERE charge_id = p_charge_id AND operation = 'charge' AND status IN ('pending', 'unknown'))
           OR EXISTS (SELECT 1 FROM review_items r JOIN ${table} a ON a.id = r.attempt_id
                       WHERE a.charge_id = p_charge_id AND a.operation = 'charge' AND r.state <> 'closed') THEN
          RETURN NULL;
        END IF;
        -- The key and exact payload commit before any network I/O, claimed for the first send (http_attempts 1,
        -- a lease the sweeper honours); the partial unique index stays the last word on one open attempt.
        INSERT INTO ${table} (id, charge_id, idempotency_key, provider, status, payload, payload_hash,
                                     http_attempts, last_sent_at, lease_expires_at)
        VALUES (p_id, p_charge_id, p_idempotency_key, p_provider, 'pending', p_payload, p_payload_hash,
                1, now(), now() + make_interval(secs => p_lease_ms / 1000))
        RETURNING created_at INTO created;
        INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
        VALUES (p_id, NULL, 'pending', 'submit', p_actor, NULL);
        RETURN created;
      END $$`;

/** The trigger function refusing an attempt of a captured charge (migration 1764680180000), likewise. */
const refuseAttemptAfterCapture = (table: string) => `
      CREATE OR REPLACE FUNCTION refuse_attempt_after_capture() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        captured uuid;
      BEGIN
        SELECT id INTO captured FROM ${table}
         WHERE charge_id = NEW.charge_id AND operation = 'charge' AND (status = 'succeeded' OR late_captured_at IS NOT NULL)
         LIMIT 1;
        IF captured IS NOT NULL THEN
          RAISE EXCEPTION 'charge % is already captured by attempt %', NEW.charge_id, captured
            USING ERRCODE = 'CO409', DETAIL = captured::text;
        END IF;
        RETURN NEW;
      END $$`;

/**
 * Names say what things are (issue 25): the table holds every operation's attempts (charges, refunds, payouts),
 * so `charge_attempts` becomes `attempts`, with every constraint, index and trigger named after it, and the two
 * PL/pgSQL functions whose bodies name it. Guarantees are untouched: a rename keeps each index and constraint as
 * it is, and the whole change is one transaction, so no statement ever meets a function naming a missing table.
 */
export class RenameChargeAttemptsToAttempts1764680300000 implements MigrationInterface {
  name = 'RenameChargeAttemptsToAttempts1764680300000';

  async up(q: QueryRunner): Promise<void> {
    await rename(q, 'charge_attempts', 'attempts');
  }

  async down(q: QueryRunner): Promise<void> {
    await rename(q, 'attempts', 'charge_attempts');
  }
}

async function rename(q: QueryRunner, from: string, to: string): Promise<void> {
  await q.query(`ALTER TABLE ${from} RENAME TO ${to}`);
  const named = (pattern: string, table: string) => `"${pattern.replace('%', table)}"`;
  for (const c of CONSTRAINTS) await q.query(`ALTER TABLE ${to} RENAME CONSTRAINT ${named(c, from)} TO ${named(c, to)}`);
  for (const i of INDEXES) await q.query(`ALTER INDEX ${named(i, from)} RENAME TO ${named(i, to)}`);
  await q.query(`ALTER TRIGGER ${from}_refuse_after_capture ON ${to} RENAME TO ${to}_refuse_after_capture`);
  await q.query(openClaimedChargeAttempt(to));
  await q.query(refuseAttemptAfterCapture(to));
}
