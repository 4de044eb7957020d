import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * LateRefundPublicStatus and LateRefundAmountInReview changed what a late refund reads (succeeded, or in_review while
 * the amount_mismatch item of another amount is open) for facts written from then on: a refund whose attempt had
 * late_refunded_at before them kept its old list status (failed, in_review), its charge's too, and its merchant never
 * got refund.succeeded. Each such refund, then its charge, goes through the outbox's own sync functions, as the
 * late fact's commit would have: under each object's event_objects row lock, the list status re-derived and the
 * event written when the announced status changed, so a second run (or a refund a live commit already synced)
 * writes nothing. Refunds first, then charges, each by id as text: the order events_flush takes those locks in, so
 * a live commit touching the same objects waits for this one rather than deadlocking with it. No provider call.
 */
const BACKFILL = `
DO $$
DECLARE
  v_id uuid;
BEGIN
  FOR v_id IN
    SELECT r.id FROM refunds r
     WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.refund_id = r.id AND a.operation = 'refund' AND a.late_refunded_at IS NOT NULL)
     ORDER BY r.id::text
  LOOP
    PERFORM sync_refund_events(v_id);
  END LOOP;
  FOR v_id IN
    SELECT c.id FROM charges c
     WHERE EXISTS (SELECT 1 FROM refunds r JOIN attempts a ON a.refund_id = r.id
                    WHERE r.charge_id = c.id AND a.operation = 'refund' AND a.late_refunded_at IS NOT NULL)
     ORDER BY c.id::text
  LOOP
    PERFORM sync_charge_events(v_id);
  END LOOP;
END $$`;

export class LateRefundStatusBackfill1764680398000 implements MigrationInterface {
  name = 'LateRefundStatusBackfill1764680398000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(BACKFILL);
  }

  // Nothing to undo: the statuses are what the current rules derive, and an event, once written, was announced.
  async down(): Promise<void> {}
}
