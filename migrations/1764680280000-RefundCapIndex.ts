import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The refund cap now also reads what a `refund_amount_mismatch` refunded beyond our refund: the partial index it
 * reads a charge's divergences by covers both kinds.
 */
export class RefundCapIndex1764680280000 implements MigrationInterface {
  name = 'RefundCapIndex1764680280000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_reconciliation_divergences_refund_charge`);
    await q.query(
      `CREATE INDEX ix_reconciliation_divergences_refund_charge ON reconciliation_divergences (charge_id)
        WHERE kind IN ('refund_provider_only', 'refund_amount_mismatch')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_reconciliation_divergences_refund_charge`);
    await q.query(`CREATE INDEX ix_reconciliation_divergences_refund_charge ON reconciliation_divergences (charge_id) WHERE kind = 'refund_provider_only'`);
  }
}
