import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import { ReservationNotReleasedError, ReservationSettledError, type LedgerService } from '@app/ledger';
import type { LockedAttempt } from './charge-lock.query.js';
import { sameMoney } from './late-capture.recorder.js';
import type { ProviderFact } from './rules/provider-fact.js';

/**
 * What a late debit moved, kept in the review item's findings for the person who looks; or why the ledger moved
 * nothing (the attempt never released a reservation of its own), the execution being recorded all the same.
 */
export type LateDebit =
  | { accountId: string; amountCents: number; availableAfterCents: number; owedCents: number }
  | { accountId: string; amountCents: number; notDebited: string };

/**
 * The provider executed the transfer of a payout attempt we had failed, so its reservation went back to available
 * and may have been spent since. Its `failed` is never rewritten: the execution is recorded beside it (once per
 * transfer: `uq_charge_attempts_late_execution_end_to_end_id`, and one per attempt), and the money is debited
 * late, any shortfall owed by the account. Runs under the payout lock the caller took (lockChargeAndAttempt), in
 * its transaction, with the review item the caller opens. Null when the fact is no executed transfer of a failed
 * payout of this amount, or the attempt already holds another transfer's execution: a person decides those.
 */
export async function recordLateDebit(ledger: LedgerService, em: EntityManager, attempt: LockedAttempt, fact: ProviderFact): Promise<LateDebit | null> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'payout' || attempt.status !== 'failed') return null;
  if (!sameMoney(fact, attempt)) return null;
  const marked = await uniqueOrNull(em, async () => {
    const [rows] = await em.query<[Array<{ account_id: string }>, number]>(
      `UPDATE charge_attempts a
          SET late_executed_at = now(), late_execution_end_to_end_id = $2, updated_at = now()
         FROM payouts p
        WHERE a.id = $1 AND p.id = a.payout_id AND a.operation = 'payout' AND a.status = 'failed' AND a.late_execution_end_to_end_id IS NULL
        RETURNING p.account_id`,
      [attempt.id, fact.providerChargeId],
    );
    return rows[0]?.account_id ?? null;
  });
  if (!marked) return null;
  try {
    const { entry } = await ledger.lateDebit(em, marked, attempt.id, attempt.amountCents);
    return { accountId: marked, amountCents: entry.amountCents, availableAfterCents: entry.availableAfterCents, owedCents: entry.owedAfterCents };
  } catch (error) {
    // Refused before the ledger wrote anything: the person decides with the transfer and this reason in front of them.
    if (error instanceof ReservationNotReleasedError || error instanceof ReservationSettledError) return { accountId: marked, amountCents: attempt.amountCents, notDebited: error.code };
    throw error;
  }
}
