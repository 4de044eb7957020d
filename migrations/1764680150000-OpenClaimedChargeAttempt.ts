import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Opens a charge's first-send attempt in one round trip, already claimed for that send, with its creation
 * audit row. The caller decided, from what it read without a lock, that a new attempt may open (the rules stay
 * in TypeScript); this function takes the charge lock every opener takes and only then confirms that what the
 * decision rested on still holds. It is a function, not one statement, because a statement's snapshot is taken
 * before it waits for the lock: a check in the same statement could miss an attempt committed while it waited.
 * In PL/pgSQL each statement after the lock takes a fresh snapshot (READ COMMITTED). Returns the attempt's
 * created_at, or NULL when anything changed (the caller then takes the full, locked path).
 */
export class OpenClaimedChargeAttempt1764680150000 implements MigrationInterface {
  name = 'OpenClaimedChargeAttempt1764680150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION open_claimed_charge_attempt(
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
        IF (SELECT count(*) FROM charge_attempts WHERE charge_id = p_charge_id AND operation = 'charge') <> p_known_attempts
           OR EXISTS (SELECT 1 FROM charge_attempts WHERE charge_id = p_charge_id AND operation = 'charge' AND status IN ('pending', 'unknown'))
           OR EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts a ON a.id = r.attempt_id
                       WHERE a.charge_id = p_charge_id AND a.operation = 'charge' AND r.state <> 'closed') THEN
          RETURN NULL;
        END IF;
        -- The key and exact payload commit before any network I/O, claimed for the first send (http_attempts 1,
        -- a lease the sweeper honours); the partial unique index stays the last word on one open attempt.
        INSERT INTO charge_attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash,
                                     http_attempts, last_sent_at, lease_expires_at)
        VALUES (p_id, p_charge_id, p_idempotency_key, p_provider, 'pending', p_payload, p_payload_hash,
                1, now(), now() + make_interval(secs => p_lease_ms / 1000))
        RETURNING created_at INTO created;
        INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
        VALUES (p_id, NULL, 'pending', 'submit', p_actor, NULL);
        RETURN created;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION open_claimed_charge_attempt(uuid, int, uuid, uuid, text, text, text, double precision, text)`);
  }
}
