import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge','duplicate_transfer', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch'`;
const KINDS_AFTER = `${KINDS_BEFORE},'refund_cancelled_at_provider'`;

/**
 * A refund of ours we recorded as succeeded that the provider shows CANCELLED (Asaas cancels refunds, even DONE
 * ones): the customer never got the money back, yet our cap and views say refunded. Its own kind, keyed by the
 * refund's id, since "missing" would say the provider never saw it. down() keeps the facts: it folds them into
 * refund_missing_at_provider, marked `cancelledAtProvider`, counts included.
 */
export class RefundCancelledKind1764680320000 implements MigrationInterface {
  name = 'RefundCancelledKind1764680320000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_AFTER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE reconciliation_runs r
          SET divergence_counts = (r.divergence_counts - 'refund_cancelled_at_provider')
                || jsonb_build_object('refund_missing_at_provider', COALESCE((r.divergence_counts->>'refund_missing_at_provider')::int, 0) + (r.divergence_counts->>'refund_cancelled_at_provider')::int)
        WHERE r.divergence_counts ? 'refund_cancelled_at_provider'`,
    );
    await q.query(
      `UPDATE reconciliation_divergences SET kind = 'refund_missing_at_provider', detail = detail || '{"cancelledAtProvider": true}'::jsonb
        WHERE kind = 'refund_cancelled_at_provider'`,
    );
    await q.query(`ALTER TABLE reconciliation_divergences DROP CONSTRAINT reconciliation_divergences_kind_check`);
    await q.query(`ALTER TABLE reconciliation_divergences ADD CONSTRAINT reconciliation_divergences_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
  }
}
