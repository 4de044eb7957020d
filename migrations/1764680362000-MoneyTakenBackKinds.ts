import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge','duplicate_transfer', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch','refund_cancelled_at_provider','pix_return_unmatched'`;
const KINDS_AFTER = `${KINDS_BEFORE},'chargeback','chargeback_reversal','custody_block'`;

/**
 * Chargebacks, their reversals and custody blocks read from the statement (Asaas's extrato; Stripe's dispute
 * balance transactions) become divergences of their own for a person. down() refuses while such divergences
 * exist: no older kind says what they say.
 */
export class MoneyTakenBackKinds1764680362000 implements MigrationInterface {
  name = 'MoneyTakenBackKinds1764680362000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_AFTER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM reconciliation_divergences WHERE kind IN ('chargeback', 'chargeback_reversal', 'custody_block')`)) as Array<{ n: number }>;
    if (n > 0) throw new Error(`${n} chargeback or custody divergences exist: reverting would forget them`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
  }
}
