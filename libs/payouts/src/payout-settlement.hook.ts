import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttemptSettlementHooks, type LateDebit, type PayoutSettlementHook } from '@app/attempts';
import { LedgerService, ReservationNotReleasedError, ReservationSettledError } from '@app/ledger';

/**
 * A payout attempt reserves its amount (ledger reference = the attempt id) in the transaction that opens it.
 * Its terminal transition settles that reservation in the same transaction: `succeeded` debits it (the money
 * left), `failed` releases it. The ledger's unique (account, reference) settlement makes a repeat a no-op and
 * debit-after-release impossible; the transition writer's conditional update means only one transition ever
 * gets here per attempt. Registered with the attempts at boot, so attempts never import the ledger.
 */
@Injectable()
export class PayoutSettlement implements PayoutSettlementHook {
  constructor(
    hooks: AttemptSettlementHooks,
    private readonly ledger: LedgerService,
  ) {
    // In the constructor, not onModuleInit: Bull's global module starts the processors in its own init hook, which
    // may run first, and a payout job ending before registration would roll back a transfer's recorded answer.
    hooks.registerPayout(this);
  }

  async settleReservation(em: EntityManager, attemptId: string, payoutId: string, to: 'succeeded' | 'failed'): Promise<void> {
    const [payout] = await em.query<Array<{ account_id: string }>>(`SELECT account_id FROM payouts WHERE id = $1`, [payoutId]);
    if (!payout) throw new Error(`payout ${payoutId} of attempt ${attemptId} not found to settle its reservation`);
    if (to === 'succeeded') await this.ledger.debit(em, payout.account_id, attemptId);
    else await this.ledger.release(em, payout.account_id, attemptId);
  }

  async debitLate(em: EntityManager, accountId: string, attemptId: string, amountCents: number): Promise<LateDebit> {
    try {
      const { entry } = await this.ledger.lateDebit(em, accountId, attemptId, amountCents);
      return { accountId, amountCents: entry.amountCents, availableAfterCents: entry.availableAfterCents, owedCents: entry.owedAfterCents };
    } catch (error) {
      // Refused before the ledger wrote anything: the person decides with the transfer and this reason in front of them.
      if (error instanceof ReservationNotReleasedError || error instanceof ReservationSettledError) return { accountId, amountCents, notDebited: error.code };
      throw error;
    }
  }
}
