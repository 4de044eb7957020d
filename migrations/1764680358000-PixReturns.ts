import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge','duplicate_transfer', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch','refund_cancelled_at_provider'`;
const KINDS_AFTER = `${KINDS_BEFORE},'pix_return_unmatched'`;

/**
 * A Pix we sent can come back, whole or in part (Efí `devolucoes[]`, each under BACEN's `rtrId`): the money is in
 * our account again, so the payout's account gets it back as a ledger credit. payout_returns keeps each return
 * once per provider (the unique rtrId is what makes a second read of the same statement a no-op), with the
 * attempt whose transfer it returns. A return we cannot put on a transfer of ours that left is its own divergence
 * kind, for a person. down() refuses while returns exist: dropping them would forget money already credited.
 */
export class PixReturns1764680358000 implements MigrationInterface {
  name = 'PixReturns1764680358000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payout_returns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        rtr_id text NOT NULL,
        payout_id uuid NOT NULL REFERENCES payouts (id),
        attempt_id uuid NOT NULL REFERENCES attempts (id),
        end_to_end_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        returned_at timestamptz NOT NULL,
        run_id uuid REFERENCES reconciliation_runs (id),
        ledger_entry_id bigint NOT NULL REFERENCES ledger_entries (id),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_payout_returns_rtr UNIQUE (provider, rtr_id)
      )`);
    await q.query(`CREATE INDEX ix_payout_returns_payout ON payout_returns (payout_id)`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_AFTER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM payout_returns`)) as Array<{ n: number }>;
    if (n > 0) throw new Error(`payout_returns holds ${n} credited returns: reverting would forget them`);
    const [{ d }] = (await q.query(`SELECT count(*)::int AS d FROM reconciliation_divergences WHERE kind = 'pix_return_unmatched'`)) as Array<{ d: number }>;
    if (d > 0) throw new Error(`${d} pix_return_unmatched divergences exist: reverting would forget them`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
    await q.query(`DROP TABLE payout_returns`);
  }
}
