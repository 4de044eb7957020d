import { describe, expect, it } from 'vitest';
import { BENCH_SEEDERS, ownerWrites, writePatterns, writersOutside } from './support/table-writers.js';

/**
 * `charges` and `refunds` have one writer each, as attempts do: every change of a charge or refund row (and so every
 * change its outbox triggers turn into an event) goes through its store, which other libraries call.
 */
const OWNERS = [
  { table: 'charges', store: 'libs/charges/src/store/', writes: writePatterns('charges', 'ChargeEntity') },
  { table: 'refunds', store: 'libs/refunds/src/store/', writes: writePatterns('refunds', 'RefundEntity') },
];

describe('the charge and refund tables', () => {
  for (const { table, store, writes } of OWNERS) {
    it(`${table} is written by ${store} alone (migrations and the benches' seeded fixtures aside)`, () => {
      expect(ownerWrites(store, writes)).toBe(true);
      expect(writersOutside(store, writes, BENCH_SEEDERS)).toEqual([]);
    });
  }

  it('would catch a writer elsewhere, and not a reader or a table of a longer name', () => {
    const [charges, refunds] = OWNERS.map((o) => o.writes);
    const caught = (patterns: RegExp[], sample: string) => patterns.some((p) => p.test(sample.replace(/\s+/g, ' ')));
    for (const sample of ['UPDATE charges SET refunded_cents = 1', 'UPDATE charges c\n SET x = 1', 'await em.insert(ChargeEntity, c)', 'em.getRepository(ChargeEntity).update({ id }, {})']) {
      expect(caught(charges, sample), sample).toBe(true);
    }
    for (const sample of ['INSERT INTO refunds (id) VALUES ($1)', 'await em.save(RefundEntity, r)']) expect(caught(refunds, sample), sample).toBe(true);
    for (const sample of ['SELECT * FROM charges', 'UPDATE charges_archive SET x = 1', 'INSERT INTO refund_proposals (id) VALUES ($1)']) {
      expect(caught(charges, sample) || caught(refunds, sample), sample).toBe(false);
    }
  });
});
