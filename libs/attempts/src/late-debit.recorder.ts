import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import type { AttemptSettlementHooks, LateDebit } from './attempt-settlement.hooks.js';
import type { LockedAttempt } from './charge-lock.query.js';
import { sameMoney } from './late-capture.recorder.js';
import type { ProviderFact } from './rules/provider-fact.js';
import { markLateExecution } from './store/attempt-facts.store.js';

/**
 * The provider executed the transfer of a payout attempt we had failed, so its reservation went back to available
 * and may have been spent since. Its `failed` is never rewritten: the execution is recorded beside it (once per
 * transfer: `uq_attempts_late_execution_end_to_end_id`, and one per attempt), and the money is debited
 * late, any shortfall owed by the account. Runs under the payout lock the caller took (lockChargeAndAttempt), in
 * its transaction, with the review item the caller opens. Null when the fact is no executed transfer of a failed
 * payout of this amount, or the attempt already holds another transfer's execution: a person decides those.
 */
export async function recordLateDebit(hooks: AttemptSettlementHooks, em: EntityManager, attempt: LockedAttempt, fact: ProviderFact): Promise<LateDebit | null> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'payout' || attempt.status !== 'failed') return null;
  if (!sameMoney(fact, attempt)) return null;
  const endToEndId = fact.providerChargeId;
  const marked = await uniqueOrNull(em, () => markLateExecution(em, attempt.id, endToEndId));
  if (!marked) return null;
  return hooks.payout().debitLate(em, marked, attempt.id, attempt.amountCents);
}
