import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The attempt state machine, enforced by the database as well: every write of attempts.status, whichever path
 * makes it (the guarded transition, the hot path's single statement, parking a sibling, a PL/pgSQL function, a
 * future one), must be a pair of this table or the statement fails (SQLSTATE CO422). A terminal status can then
 * never be rewritten, even by code that forgot canTransition. The rows are the TypeScript table's
 * (`allowedTransitionPairs`); test/attempt-state-table.test.ts fails if the two ever differ. Creating an attempt
 * is not a transition (open_claimed_charge_attempt inserts `pending`); this guards updates only.
 */
const PAIRS: ReadonlyArray<[string, string]> = [
  ['pending', 'succeeded'],
  ['pending', 'failed'],
  ['pending', 'unknown'],
  ['unknown', 'succeeded'],
  ['unknown', 'failed'],
];

export class AttemptStateTable1764680340000 implements MigrationInterface {
  name = 'AttemptStateTable1764680340000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE attempt_status_transitions (from_status text NOT NULL, to_status text NOT NULL, PRIMARY KEY (from_status, to_status))`);
    for (const [from, to] of PAIRS) await q.query(`INSERT INTO attempt_status_transitions (from_status, to_status) VALUES ($1, $2)`, [from, to]);
    await q.query(`
      CREATE FUNCTION attempts_status_by_the_table() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM attempt_status_transitions WHERE from_status = OLD.status AND to_status = NEW.status) THEN
          RAISE EXCEPTION 'attempt % may not move from % to %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'CO422', DETAIL = 'not a transition of the attempt state table';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER attempts_status_by_the_table BEFORE UPDATE OF status ON attempts
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION attempts_status_by_the_table()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER attempts_status_by_the_table ON attempts`);
    await q.query(`DROP FUNCTION attempts_status_by_the_table()`);
    await q.query(`DROP TABLE attempt_status_transitions`);
  }
}
