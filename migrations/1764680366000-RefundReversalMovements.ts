import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund's reversal (Stripe's `refund_failure` balance transaction) is kept as a money movement beside the refund
 * line it cancels, both under the refund's id (`reference`), so a charge's provider refunded amount is the net of
 * both, and a refund line is known reversed, whichever day each was read and in whichever order. down() refuses
 * while such movements exist: the older totals would count the reversed refunds again.
 */
export class RefundReversalMovements1764680366000 implements MigrationInterface {
  name = 'RefundReversalMovements1764680366000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_money_movements ADD COLUMN reference text`);
    await q.query(`CREATE INDEX ix_reconciliation_money_movements_reversal ON reconciliation_money_movements (provider, reference) WHERE kind = 'refund_failure'`);
    await q.query(`ALTER TABLE reconciliation_money_movements DROP CONSTRAINT reconciliation_money_movements_kind_check`);
    await q.query(`ALTER TABLE reconciliation_money_movements ADD CONSTRAINT reconciliation_money_movements_kind_check CHECK (kind IN ('refund','refund_failure','dispute','dispute_reversal'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM reconciliation_money_movements WHERE kind = 'refund_failure'`)) as Array<{ n: number }>;
    if (n > 0) throw new Error(`${n} refund reversals are kept as movements: reverting would count their refunds again`);
    await q.query(`ALTER TABLE reconciliation_money_movements DROP CONSTRAINT reconciliation_money_movements_kind_check`);
    await q.query(`ALTER TABLE reconciliation_money_movements ADD CONSTRAINT reconciliation_money_movements_kind_check CHECK (kind IN ('refund','dispute','dispute_reversal'))`);
    await q.query(`DROP INDEX ix_reconciliation_money_movements_reversal`);
    await q.query(`ALTER TABLE reconciliation_money_movements DROP COLUMN reference`);
  }
}
