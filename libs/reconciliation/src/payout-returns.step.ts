import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { PixReturnRecorder } from '@app/payouts';
import { recordMissingDivergences, type MatchScope } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';

const VERDICTS = 'reconciliation_pix_return_verdicts';

/**
 * The day's sent Pix carry what came back of them (`payout_return` lines). Each return goes through the payouts'
 * one recorder, in a transaction of its own: money back on a transfer of ours that left is credited to the
 * payout's account once per rtrId; any other return is a `pix_return_unmatched` divergence (with its review item
 * on the attempt, when there is one), and nothing is credited. Returns are read with their transfer, whatever day
 * they came back on: the day's own sent Pix, and those of RECONCILIATION_PIX_RETURNS_DAYS earlier days read again
 * for their returns alone, so a return that came after its day's run is credited by a later night's.
 */
@Injectable()
export class PayoutReturnsStep {
  private readonly logger = new Logger(PayoutReturnsStep.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly recorder: PixReturnRecorder,
  ) {}

  async run(client: PoolClient, scope: MatchScope): Promise<{ credited: number; unmatched: number }> {
    const { rows } = await client.query<{ line_id: string; e2e: string; attempt_ref: string | null; amount_cents: number; currency: string; returned_at: Date }>(
      `SELECT line_id, provider_charge_id AS e2e, attempt_ref, amount_cents::float8 AS amount_cents, currency, created_at AS returned_at
         FROM ${STAGING_TABLE} WHERE kind = 'payout_return' ORDER BY created_at, line_id`,
    );
    if (rows.length === 0) return { credited: 0, unmatched: 0 };
    await client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${VERDICTS} (line_id text PRIMARY KEY, payout_id uuid, attempt_id uuid, why text NOT NULL)`);
    await client.query(`TRUNCATE ${VERDICTS}`);
    let credited = 0;
    for (const line of rows) {
      const verdict = await this.db.transaction((em) =>
        this.recorder.record(em, {
          provider: scope.provider,
          rtrId: line.line_id,
          endToEndId: line.e2e,
          attemptRef: line.attempt_ref,
          amountCents: line.amount_cents,
          currency: line.currency,
          returnedAt: line.returned_at,
          runId: scope.runId,
        }),
      );
      if (verdict.outcome === 'credited') credited += 1;
      if (verdict.outcome === 'review' || verdict.outcome === 'unowned') {
        const owner = verdict.outcome === 'review' ? [verdict.payoutId, verdict.attemptId] : [null, null];
        await client.query(`INSERT INTO ${VERDICTS} (line_id, payout_id, attempt_id, why) VALUES ($1, $2, $3, $4)`, [line.line_id, ...owner, verdict.why]);
      }
    }
    await recordMissingDivergences(
      client,
      scope,
      `SELECT 'pix_return_unmatched' AS kind, v.line_id AS subject, s.provider_charge_id, v.payout_id AS owner_id, v.attempt_id,
              s.amount_cents, s.currency, s.created_at AS seen_at, s.line_id,
              jsonb_build_object('rtrId', s.line_id, 'transferId', s.reference, 'returnedAt', s.created_at, 'why', v.why) AS detail
         FROM ${VERDICTS} v JOIN ${STAGING_TABLE} s ON s.line_id = v.line_id AND s.kind = 'payout_return'
        -- Not bounded by the day's window ($4, $5): a return is read with its transfer, whenever it came back.
        WHERE $4::timestamptz IS NOT NULL AND $5::timestamptz IS NOT NULL`,
      'payout_id',
    );
    const unmatched = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${VERDICTS}`)).rows[0].n;
    await client.query(`DROP TABLE ${VERDICTS}`);
    if (credited > 0 || unmatched > 0) this.logger.log({ runId: scope.runId, credited, unmatched }, 'pix returns read');
    return { credited, unmatched };
  }
}
