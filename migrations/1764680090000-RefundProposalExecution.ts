import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An approved refund proposal is executed as a refund through the one attempt model. What it refunds is a
 * provider charge that is not our charge's success (a provider-only charge, or a second charge for one of
 * ours), so such a refund names that provider charge and belongs to no charge of ours: it commits nothing
 * against a charge's captured amount, and its cap is the proposal's amount, executed at most once.
 */
export class RefundProposalExecution1764680090000 implements MigrationInterface {
  name = 'RefundProposalExecution1764680090000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds ALTER COLUMN charge_id DROP NOT NULL`);
    await q.query(`ALTER TABLE refunds ADD COLUMN provider_charge_id text`);
    await q.query(`
      ALTER TABLE refunds ADD CONSTRAINT refunds_target_check
        CHECK ((charge_id IS NOT NULL AND provider_charge_id IS NULL AND proposal_id IS NULL)
            OR (charge_id IS NULL AND provider_charge_id IS NOT NULL AND proposal_id IS NOT NULL))`);
    await q.query(`ALTER TABLE refunds ADD CONSTRAINT refunds_proposal_id_fkey FOREIGN KEY (proposal_id) REFERENCES refund_proposals(id)`);
    // One provider charge, one proposal refund, even if two runs proposed it under two kinds (a failed one is retried in place).
    await q.query(`CREATE UNIQUE INDEX uq_refunds_proposal_provider_charge ON refunds (provider_charge_id) WHERE charge_id IS NULL`);
    await q.query(`ALTER TABLE charge_attempts ALTER COLUMN charge_id DROP NOT NULL`);
    await q.query(`ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_charge_id_check CHECK (operation <> 'charge' OR charge_id IS NOT NULL)`);
    // Approving executes in the same transaction, so no proposal rests in an `approved` state.
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_state_check`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_state_check CHECK (state IN ('proposed','rejected','executed'))`);
    await q.query(`ALTER TABLE refund_proposals ADD COLUMN refund_id uuid CONSTRAINT refund_proposals_refund_id_fkey REFERENCES refunds(id)`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_refund_id_check CHECK ((state = 'executed') = (refund_id IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_refund_id_check`);
    await q.query(`UPDATE refund_proposals SET refund_id = NULL, state = 'proposed' WHERE refund_id IN (SELECT id FROM refunds WHERE charge_id IS NULL)`);
    await q.query(`ALTER TABLE refund_proposals DROP COLUMN refund_id`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_state_check`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_state_check CHECK (state IN ('proposed','approved','rejected','executed'))`);
    await q.query(`DELETE FROM review_items WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE charge_id IS NULL)`);
    await q.query(`UPDATE webhook_events SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE charge_id IS NULL)`);
    await q.query(`DELETE FROM provider_calls WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE charge_id IS NULL)`);
    await q.query(`DELETE FROM attempt_transitions WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE charge_id IS NULL)`);
    await q.query(`DELETE FROM charge_attempts WHERE charge_id IS NULL`);
    await q.query(`DELETE FROM refunds WHERE charge_id IS NULL`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_charge_id_check`);
    await q.query(`ALTER TABLE charge_attempts ALTER COLUMN charge_id SET NOT NULL`);
    await q.query(`DROP INDEX uq_refunds_proposal_provider_charge`);
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_proposal_id_fkey`);
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_target_check`);
    await q.query(`ALTER TABLE refunds DROP COLUMN provider_charge_id`);
    await q.query(`ALTER TABLE refunds ALTER COLUMN charge_id SET NOT NULL`);
  }
}
