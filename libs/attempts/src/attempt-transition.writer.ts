import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { attemptTransitionsTotal, unknownToCertaintySeconds } from '@app/observability';
import { isTerminal } from './rules/attempt-status.js';
import { canTransition } from './rules/attempt-state-machine.js';
import { IllegalTransitionError } from './attempts.errors.js';
import { AttemptSettlementHooks } from './attempt-settlement.hooks.js';
import { releaseFailedRefund } from './refund-commitment.releaser.js';
import { transitionAttempt, type AttemptTransition } from './store/attempt-transition.store.js';

export type { AttemptTransition } from './store/attempt-transition.store.js';

/**
 * The one way an attempt changes status (the store's guarded transition), with what must commit with it: a failed
 * refund gives its amount back, a payout's end settles its reservation. The loser of a race gets `false`.
 */
@Injectable()
export class AttemptTransitionWriter {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hooks: AttemptSettlementHooks,
  ) {}

  async apply(t: AttemptTransition, manager?: EntityManager): Promise<boolean> {
    if (!canTransition(t.from, t.to)) throw new IllegalTransitionError(t.attemptId, t.from, t.to);
    const run = (em: EntityManager) => this.applyIn(em, t);
    return manager ? run(manager) : this.db.transaction(run);
  }

  private async applyIn(em: EntityManager, t: AttemptTransition): Promise<boolean> {
    // A failed refund gives its amount back to the charge: take the charge row first, in the order every
    // writer takes it (charge, then attempt), so this cannot deadlock with an opener or the applier.
    if (t.to === 'failed') {
      await em.query(`SELECT c.id FROM charges c JOIN attempts a ON a.charge_id = c.id WHERE a.id = $1 AND a.operation = 'refund' FOR UPDATE OF c`, [t.attemptId]);
      // A proposal's refund has no charge: its refund row stands in, as in lockChargeAndAttempt.
      await em.query(`SELECT r.id FROM refunds r JOIN attempts a ON a.refund_id = r.id WHERE a.id = $1 AND a.charge_id IS NULL FOR UPDATE OF r`, [t.attemptId]);
    }
    const row = await transitionAttempt(em, t);
    if (!row) return false;
    const terminal = isTerminal(t.to);
    if (t.to === 'failed' && row.operation === 'refund' && row.refund_id) await releaseFailedRefund(em, t.attemptId, row.refund_id);
    // A payout attempt reserved its amount when it opened: its end debits or releases it, in this transaction.
    // `unknown` never touches it, so money that may have left is never spent twice.
    if (terminal && row.operation === 'payout' && row.payout_id) await this.hooks.payout().settleReservation(em, t.attemptId, row.payout_id, t.to as 'succeeded' | 'failed');
    attemptTransitionsTotal.inc({ provider: row.provider, to: t.to, cause: t.cause });
    if (terminal && t.from === 'unknown' && row.unknown_since) {
      unknownToCertaintySeconds.observe({ provider: row.provider, cause: t.cause }, (Date.now() - row.unknown_since.getTime()) / 1000);
    }
    return true;
  }
}
