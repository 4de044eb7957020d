import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund the provider made after we had failed its attempt (late_refunded_at) read `failed` to the merchant and
 * announced nothing. Its public status is now `succeeded`, as a late execution makes a payout sent, and recording
 * it touches the refund like a late capture or execution does, so `refund.succeeded` (and the charge's status
 * event) is written at the commit of the fact. The attempt's `failed` is never rewritten: the status is derived.
 */
const STATUS = (late: boolean) => `
CREATE OR REPLACE FUNCTION refund_public_status(p_refund uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT CASE
    WHEN bool_or(a.status = 'succeeded'${late ? ' OR a.late_refunded_at IS NOT NULL' : ''}) THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.refund_id = p_refund AND ri.state <> 'closed') THEN 'in_review'
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.refund_id = p_refund AND a.operation = 'refund');
END $$;`;

const LATE_FACTS = (late: boolean) => {
  const columns = `late_captured_at, late_executed_at${late ? ', late_refunded_at' : ''}`;
  const when = `((OLD.late_captured_at IS NULL AND NEW.late_captured_at IS NOT NULL) OR (OLD.late_executed_at IS NULL AND NEW.late_executed_at IS NOT NULL)${
    late ? ' OR (OLD.late_refunded_at IS NULL AND NEW.late_refunded_at IS NOT NULL)' : ''
  })`;
  return [
    `DROP TRIGGER events_touch_late_fact ON attempts`,
    `DROP TRIGGER events_after_late_fact ON attempts`,
    `CREATE TRIGGER events_touch_late_fact AFTER UPDATE OF ${columns} ON attempts
       FOR EACH ROW WHEN ${when} EXECUTE FUNCTION events_on_late_fact()`,
    `CREATE CONSTRAINT TRIGGER events_after_late_fact AFTER UPDATE OF ${columns} ON attempts
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ${when} EXECUTE FUNCTION events_at_commit()`,
  ];
};

export class LateRefundPublicStatus1764680393000 implements MigrationInterface {
  name = 'LateRefundPublicStatus1764680393000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(STATUS(true));
    for (const statement of LATE_FACTS(true)) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of LATE_FACTS(false)) await q.query(statement);
    await q.query(STATUS(false));
  }
}
