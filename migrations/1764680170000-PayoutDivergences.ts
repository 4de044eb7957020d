import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reconciliation learns payouts: a divergence found in a payout gateway's sent-Pix statement names the payout
 * (and its attempt) instead of a charge, never both.
 */
export class PayoutDivergences1764680170000 implements MigrationInterface {
  name = 'PayoutDivergences1764680170000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_divergences ADD COLUMN payout_id uuid CONSTRAINT reconciliation_divergences_payout_id_fkey REFERENCES payouts(id)`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_owner_check CHECK (charge_id IS NULL OR payout_id IS NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM reconciliation_run_divergences WHERE divergence_id IN (SELECT id FROM reconciliation_divergences WHERE payout_id IS NOT NULL)`);
    await q.query(`DELETE FROM reconciliation_divergences WHERE payout_id IS NOT NULL`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_owner_check`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP COLUMN payout_id`);
  }
}
