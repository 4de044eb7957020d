import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch'`;
const KINDS_AFTER = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge','duplicate_transfer', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch'`;

/** A run that found payout divergences read a payout gateway's statement: its `duplicate_charge` count was transfers. */
const PAYOUT_RUN = `EXISTS (SELECT 1 FROM reconciliation_run_divergences l JOIN reconciliation_divergences d ON d.id = l.divergence_id
                              WHERE l.run_id = r.id AND d.payout_id IS NOT NULL)`;

/**
 * Names say what things are (issue 25): a second transfer for a payout that already succeeded is a
 * `duplicate_transfer`, not a `duplicate_charge`. Existing payout divergences (the ones naming a payout) and the
 * counts their runs recorded are renamed with the CHECK; down() folds them back.
 */
export class DuplicateTransferKind1764680290000 implements MigrationInterface {
  name = 'DuplicateTransferKind1764680290000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_AFTER}))`);
    await q.query(`UPDATE reconciliation_divergences SET kind = 'duplicate_transfer' WHERE kind = 'duplicate_charge' AND payout_id IS NOT NULL`);
    await q.query(
      `UPDATE reconciliation_runs r
          SET divergence_counts = r.divergence_counts || jsonb_build_object('duplicate_charge', 0, 'duplicate_transfer', r.divergence_counts->'duplicate_charge')
        WHERE r.divergence_counts ? 'duplicate_charge' AND ${PAYOUT_RUN}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE reconciliation_runs r
          SET divergence_counts = (r.divergence_counts - 'duplicate_transfer')
                || jsonb_build_object('duplicate_charge', COALESCE((r.divergence_counts->>'duplicate_charge')::int, 0) + (r.divergence_counts->>'duplicate_transfer')::int)
        WHERE r.divergence_counts ? 'duplicate_transfer'`,
    );
    await q.query(`UPDATE reconciliation_divergences SET kind = 'duplicate_charge' WHERE kind = 'duplicate_transfer'`);
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
  }
}
