import type { EntityManager } from 'typeorm';
import { LedgerService } from '@app/ledger';

/**
 * A payout attempt reserves its amount (ledger reference = the attempt id) in the transaction that opens it.
 * Its terminal transition settles that reservation in the same transaction: `succeeded` debits it (the money
 * left), `failed` releases it. `unknown` never touches it, so money that may have left is never spent twice.
 * The ledger's unique (account, reference) settlement makes a repeat a no-op and debit-after-release
 * impossible; the writer's conditional update means only one transition ever gets here per attempt.
 */
export async function settlePayoutReservation(ledger: LedgerService, em: EntityManager, attemptId: string, payoutId: string, to: 'succeeded' | 'failed'): Promise<void> {
  const [payout] = await em.query<Array<{ account_id: string }>>(`SELECT account_id FROM payouts WHERE id = $1`, [payoutId]);
  if (!payout) throw new Error(`payout ${payoutId} of attempt ${attemptId} not found to settle its reservation`);
  if (to === 'succeeded') await ledger.debit(em, payout.account_id, attemptId);
  else await ledger.release(em, payout.account_id, attemptId);
}
