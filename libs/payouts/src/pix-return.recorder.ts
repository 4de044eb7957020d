import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LedgerService } from '@app/ledger';
import { openReviewItem } from '@app/review/items';

/** One return the provider showed on a sent Pix: BACEN's return id, and the transfer it came back from. */
export interface PixReturnFact {
  provider: string;
  rtrId: string;
  endToEndId: string;
  /** The attempt the transfer names (Efí idEnvio), when it names one of ours. */
  attemptRef: string | null;
  amountCents: number;
  currency: string;
  returnedAt: Date;
  /** The reconciliation run that read it, if one did. */
  runId: string | null;
}

/**
 * `credited`: the account got the money back now. `already_recorded`: this rtrId was credited before (a re-run).
 * `review`: put to a person on the attempt (`why`); `unowned`: no payout attempt of ours sent that Pix.
 */
export type PixReturnOutcome =
  | { outcome: 'credited'; payoutId: string; ledgerEntryId: string }
  | { outcome: 'already_recorded'; payoutId: string }
  | { outcome: 'review'; payoutId: string; attemptId: string; why: string }
  | { outcome: 'unowned'; why: string };

interface Transfer {
  attempt_id: string;
  payout_id: string;
  account_id: string;
  payout_amount: number;
  payout_currency: string;
  /** The end-to-end id of money that left through this attempt: its success's, or its late execution's. */
  left_e2e: string | null;
}

/**
 * The one writer of payout_returns. A return gives its money back to the payout's account only when it is a
 * return of a transfer of ours that left (the attempt succeeded with that end-to-end id, or executed late under
 * it), in the payout's currency, and all returns together stay within what was sent. Anything else is a fact we
 * cannot place, and is put to a person with the evidence, never credited on the statement's word. The unique
 * (provider, rtrId) and the ledger's unique reference each make a second reading a no-op; the payout row is
 * locked so two readers of returns of one payout add up under one lock.
 */
@Injectable()
export class PixReturnRecorder {
  constructor(private readonly ledger: LedgerService) {}

  async record(em: EntityManager, fact: PixReturnFact): Promise<PixReturnOutcome> {
    const transfer = await this.transferOf(em, fact);
    if (!transfer) return { outcome: 'unowned', why: 'no payout attempt of ours sent this Pix' };
    await em.query(`SELECT id FROM payouts WHERE id = $1 FOR UPDATE`, [transfer.payout_id]);
    const [known] = await em.query<Array<{ amount_cents: number; end_to_end_id: string }>>(
      `SELECT amount_cents::float8 AS amount_cents, end_to_end_id FROM payout_returns WHERE provider = $1 AND rtr_id = $2`,
      [fact.provider, fact.rtrId],
    );
    if (known && known.amount_cents === fact.amountCents && known.end_to_end_id === fact.endToEndId) return { outcome: 'already_recorded', payoutId: transfer.payout_id };
    const why = known ? 'this return id was recorded before with another amount or transfer' : await this.reasonNotToCredit(em, transfer, fact);
    if (why) {
      // A re-run of the day reads the same return again: a person is asked about it once.
      if (!(await this.alreadyPutToReview(em, transfer.attempt_id, fact.rtrId))) {
        await openReviewItem(em, transfer.attempt_id, 'pix_return_unmatched', { ...factEvidence(fact), why, lineId: fact.rtrId });
      }
      return { outcome: 'review', payoutId: transfer.payout_id, attemptId: transfer.attempt_id, why };
    }
    const { entry } = await this.ledger.credit(em, transfer.account_id, fact.amountCents, `pix_return:${fact.provider}:${fact.rtrId}`);
    await em.query(
      `INSERT INTO payout_returns (provider, rtr_id, payout_id, attempt_id, end_to_end_id, amount_cents, currency, returned_at, run_id, ledger_entry_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [fact.provider, fact.rtrId, transfer.payout_id, transfer.attempt_id, fact.endToEndId, fact.amountCents, fact.currency, fact.returnedAt, fact.runId, entry.id],
    );
    return { outcome: 'credited', payoutId: transfer.payout_id, ledgerEntryId: entry.id };
  }

  /** The attempt whose transfer this is: by the end-to-end id it learnt (or executed late under), else by the idEnvio. */
  private async transferOf(em: EntityManager, fact: PixReturnFact): Promise<Transfer | undefined> {
    const [row] = await em.query<Transfer[]>(
      `SELECT a.id AS attempt_id, a.payout_id, p.account_id, p.amount_cents::float8 AS payout_amount, trim(p.currency) AS payout_currency,
              CASE WHEN a.status = 'succeeded' THEN a.provider_ref WHEN a.late_executed_at IS NOT NULL THEN a.late_execution_end_to_end_id END AS left_e2e
         FROM attempts a JOIN payouts p ON p.id = a.payout_id
        WHERE a.operation = 'payout' AND a.provider = $1
          AND (a.provider_ref = $2 OR a.late_execution_end_to_end_id = $2 OR a.id = $3::uuid)
        ORDER BY COALESCE(a.provider_ref = $2 OR a.late_execution_end_to_end_id = $2, false) DESC
        LIMIT 1`,
      [fact.provider, fact.endToEndId, fact.attemptRef],
    );
    return row;
  }

  private async alreadyPutToReview(em: EntityManager, attemptId: string, rtrId: string): Promise<boolean> {
    const found = await em.query<unknown[]>(
      `SELECT 1 FROM review_items r
        WHERE r.attempt_id = $1
          AND (r.evidence->'findings'->>'lineId' = $2
               OR r.evidence->'laterFindings' @> jsonb_build_array(jsonb_build_object('findings', jsonb_build_object('lineId', $2::text))))`,
      [attemptId, rtrId],
    );
    return found.length > 0;
  }

  private async reasonNotToCredit(em: EntityManager, transfer: Transfer, fact: PixReturnFact): Promise<string | null> {
    if (transfer.left_e2e === null) return 'the attempt that sent this Pix is not recorded as money that left (unknown or failed)';
    if (transfer.left_e2e !== fact.endToEndId) return `the attempt's money left under another end-to-end id (${transfer.left_e2e})`;
    if (fact.currency !== transfer.payout_currency) return `returned in ${fact.currency}, the payout was in ${transfer.payout_currency}`;
    const [{ returned }] = await em.query<Array<{ returned: number }>>(
      `SELECT COALESCE(sum(amount_cents), 0)::float8 AS returned FROM payout_returns WHERE payout_id = $1`,
      [transfer.payout_id],
    );
    if (returned + fact.amountCents > transfer.payout_amount) return `returns would add up to ${returned + fact.amountCents}, more than the ${transfer.payout_amount} sent`;
    return null;
  }
}

function factEvidence(fact: PixReturnFact): Record<string, unknown> {
  return { rtrId: fact.rtrId, endToEndId: fact.endToEndId, amountCents: fact.amountCents, currency: fact.currency, returnedAt: fact.returnedAt.toISOString(), runId: fact.runId };
}
