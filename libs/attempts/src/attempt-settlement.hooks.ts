import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * What a late debit moved, kept in the review item's findings for the person who looks; or why the ledger moved
 * nothing (the attempt never released a reservation of its own), the execution being recorded all the same.
 */
export type LateDebit =
  | { accountId: string; amountCents: number; availableAfterCents: number; owedCents: number }
  | { accountId: string; amountCents: number; notDebited: string };

/**
 * What a payout's money does when its attempt ends, run inside the transaction that ends it so the money and the
 * status commit together. The payouts library registers it (it owns payouts and talks to the ledger); attempts
 * only know the moment, never the ledger.
 */
export interface PayoutSettlementHook {
  /** A terminal transition: `succeeded` debits the reservation under the attempt id, `failed` releases it. */
  settleReservation(em: EntityManager, attemptId: string, payoutId: string, to: 'succeeded' | 'failed'): Promise<void>;
  /** A transfer executed after we failed its attempt (and released its money): debit it late, any shortfall owed. */
  debitLate(em: EntityManager, accountId: string, attemptId: string, amountCents: number): Promise<LateDebit>;
}

/**
 * Where the owner of an operation hooks into the end of its attempts. One per process: a payout attempt that ends
 * with no hook registered throws (rolling its transition back) rather than leave money reserved forever.
 */
@Injectable()
export class AttemptSettlementHooks {
  private payoutHook: PayoutSettlementHook | null = null;

  registerPayout(hook: PayoutSettlementHook): void {
    this.payoutHook = hook;
  }

  payout(): PayoutSettlementHook {
    if (!this.payoutHook) throw new Error('no payout settlement hook registered: import PayoutsModule where payout attempts can end');
    return this.payoutHook;
  }
}
