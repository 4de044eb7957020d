import 'reflect-metadata';
import { DataSource, type QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '@app/database';
import { DuplicateTransferKind1764680290000 } from '../migrations/1764680290000-DuplicateTransferKind.js';
import { scratchDatabase } from './support/scratch-database.js';

const PAYOUT_RUN = '00000000-0000-4000-8000-000000000001';
const CHARGE_RUN = '00000000-0000-4000-8000-000000000002';
const PAYOUT_DUPLICATE = '00000000-0000-4000-8000-0000000000a1';
const CHARGE_DUPLICATE = '00000000-0000-4000-8000-0000000000a2';

/**
 * The migration that names a payout's second transfer `duplicate_transfer` rewrites rows written before it: the
 * divergences naming a payout and the counts their runs stored. On a database of its own, since down() swaps a CHECK.
 */
describe('the duplicate_transfer migration', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(await scratchDatabase('divergence_kinds'))).initialize();
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** A payout run's duplicate and a charge run's duplicate, as the matchers write them today. */
  async function plant(q: QueryRunner): Promise<void> {
    // The divergences' owners (payout, charge) are irrelevant to the rename: foreign keys are not checked here.
    await q.query(`SET LOCAL session_replication_role = replica`);
    const zero = { provider_only: 0, duplicate_charge: 0, duplicate_transfer: 0 };
    for (const [id, counts] of [[PAYOUT_RUN, { ...zero, duplicate_transfer: 2 }], [CHARGE_RUN, { ...zero, duplicate_charge: 1 }]] as const) {
      await q.query(
        `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, divergence_counts)
         VALUES ($1, 'efi', '2026-01-01', 'manual', 'api', 'succeeded', 'test', $2)`,
        [id, JSON.stringify(counts)],
      );
    }
    for (const [id, runId, kind, payoutId, chargeId] of [
      [PAYOUT_DUPLICATE, PAYOUT_RUN, 'duplicate_transfer', '00000000-0000-4000-8000-0000000000f1', null],
      [CHARGE_DUPLICATE, CHARGE_RUN, 'duplicate_charge', null, '00000000-0000-4000-8000-0000000000c1'],
    ]) {
      await q.query(
        `INSERT INTO reconciliation_divergences (id, run_id, kind, provider, day, subject, payout_id, charge_id, amount_cents, currency, detail, status)
         VALUES ($1, $2, $3, 'efi', '2026-01-01', $6, $4, $5, 100, 'brl', '{}', 'open')`,
        [id, runId, kind, payoutId, chargeId, `e2e-${id}`],
      );
      await q.query(`INSERT INTO reconciliation_run_divergences (run_id, divergence_id) VALUES ($1, $2)`, [runId, id]);
    }
  }

  const kinds = async (q: QueryRunner): Promise<Array<{ id: string; kind: string }>> => q.query(`SELECT id, kind FROM reconciliation_divergences ORDER BY id`);
  const counts = async (q: QueryRunner) => {
    const runs: Array<{ id: string; divergence_counts: object }> = await q.query(`SELECT id, divergence_counts FROM reconciliation_runs`);
    return Object.fromEntries(runs.map((r) => [r.id, r.divergence_counts]));
  };

  it('down() folds payout duplicates back into duplicate_charge, and up() separates them again, counts included', async () => {
    const q = db.createQueryRunner();
    await q.startTransaction();
    try {
      await plant(q);
      await new DuplicateTransferKind1764680290000().down(q);
      expect(await kinds(q)).toEqual([{ id: PAYOUT_DUPLICATE, kind: 'duplicate_charge' }, { id: CHARGE_DUPLICATE, kind: 'duplicate_charge' }]);
      expect(await counts(q)).toEqual({ [PAYOUT_RUN]: { provider_only: 0, duplicate_charge: 2 }, [CHARGE_RUN]: { provider_only: 0, duplicate_charge: 1 } });

      await new DuplicateTransferKind1764680290000().up(q);
      expect(await kinds(q)).toEqual([{ id: PAYOUT_DUPLICATE, kind: 'duplicate_transfer' }, { id: CHARGE_DUPLICATE, kind: 'duplicate_charge' }]);
      expect(await counts(q)).toEqual({
        [PAYOUT_RUN]: { provider_only: 0, duplicate_charge: 0, duplicate_transfer: 2 },
        [CHARGE_RUN]: { provider_only: 0, duplicate_charge: 1 },
      });
      await expect(q.query(`UPDATE reconciliation_divergences SET kind = 'duplicate_payout' WHERE id = $1`, [PAYOUT_DUPLICATE])).rejects.toThrow(/kind_check/);
    } finally {
      await q.rollbackTransaction();
      await q.release();
    }
  });
});
