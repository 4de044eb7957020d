import type { MigrationInterface, QueryRunner } from 'typeorm';

const CHARGE_KINDS = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge'`;
const REFUND_KINDS = `'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch'`;

/**
 * Refunds are reconciled (issue 24): a refund line of the statement with no refund of ours behind it (or one we
 * recorded as failed or unknown), our succeeded refund absent from the statement, and a refund of another amount
 * are divergences like the charges', in the same table under their own kinds.
 */
export class RefundDivergences1764680240000 implements MigrationInterface {
  name = 'RefundDivergences1764680240000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${CHARGE_KINDS}, ${REFUND_KINDS}))`);
    // The refund cap reads a charge's open provider-only refunds.
    await q.query(`CREATE INDEX ix_reconciliation_divergences_refund_charge ON reconciliation_divergences (charge_id) WHERE kind = 'refund_provider_only'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_reconciliation_divergences_refund_charge`);
    await q.query(`DELETE FROM reconciliation_run_divergences WHERE divergence_id IN (SELECT id FROM reconciliation_divergences WHERE kind IN (${REFUND_KINDS}))`);
    await q.query(`DELETE FROM reconciliation_divergences WHERE kind IN (${REFUND_KINDS})`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${CHARGE_KINDS}))`);
  }
}
