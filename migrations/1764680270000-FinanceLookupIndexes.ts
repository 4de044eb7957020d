import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finance's console reads by keys nothing indexed before: a charge by order id (unique only within a merchant)
 * or customer id across merchants, by the provider charge a reviewer's decision named, and time to certainty
 * over the last hours of transitions out of `unknown`. Without these each lookup or chart scans its table.
 */
export class FinanceLookupIndexes1764680270000 implements MigrationInterface {
  name = 'FinanceLookupIndexes1764680270000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_charges_order_id ON charges (order_id)`);
    await q.query(`CREATE INDEX ix_charges_customer_id ON charges (customer_id)`);
    await q.query(`CREATE INDEX ix_review_items_decision_provider_charge_id ON review_items (decision_provider_charge_id) WHERE decision_provider_charge_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_attempt_transitions_left_unknown ON attempt_transitions (at) WHERE from_status = 'unknown'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_attempt_transitions_left_unknown`);
    await q.query(`DROP INDEX ix_review_items_decision_provider_charge_id`);
    await q.query(`DROP INDEX ix_charges_customer_id`);
    await q.query(`DROP INDEX ix_charges_order_id`);
  }
}
