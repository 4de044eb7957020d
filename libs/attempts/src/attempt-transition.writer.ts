import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptTransitionEntity, ChargeAttemptEntity } from '@app/database';
import { attemptTransitionsTotal, unknownToCertaintySeconds } from '@app/observability';
import type { AttemptStatus } from './rules/attempt-status.js';
import { isTerminal } from './rules/attempt-status.js';
import { canTransition, type TransitionCause } from './rules/attempt-state-machine.js';
import { IllegalTransitionError } from './attempts.errors.js';
import { releaseFailedRefund } from './refund-commitment.releaser.js';
import { AttemptSettlementHooks } from './attempt-settlement.hooks.js';

export interface AttemptTransition {
  attemptId: string;
  from: AttemptStatus;
  to: AttemptStatus;
  cause: TransitionCause;
  actor: string;
  /** Columns to write together with the status. */
  set?: Partial<Pick<ChargeAttemptEntity, 'providerChargeId' | 'lastError'>>;
  /** Only the process that holds the send claim numbered this may record its result. */
  expectHttpAttempts?: number;
  /** The sender recording its own response: the send ended now (the resolver's grace counts from here). */
  sendEnded?: boolean;
  /** Only while the sender's lease has run out: a sender that recorded its result meanwhile wins. */
  expectLeaseExpired?: boolean;
  detail?: Record<string, unknown>;
}

/**
 * The one way an attempt changes status: `UPDATE ... WHERE id AND status = from`, row count checked,
 * audit row written in the same transaction. Two writers racing on one row produce one transition;
 * the loser gets `false` and must re-read.
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

  /** The first audit row of an attempt: it exists, pending, with its key stored. */
  async recordCreation(em: EntityManager, attemptId: string, actor: string): Promise<void> {
    await em.insert(AttemptTransitionEntity, { attemptId, fromStatus: null, toStatus: 'pending', cause: 'submit', actor, detail: null });
  }

  private async applyIn(em: EntityManager, t: AttemptTransition): Promise<boolean> {
    // A failed refund gives its amount back to the charge: take the charge row first, in the order every
    // writer takes it (charge, then attempt), so this cannot deadlock with an opener or the applier.
    if (t.to === 'failed') {
      await em.query(`SELECT c.id FROM charges c JOIN charge_attempts a ON a.charge_id = c.id WHERE a.id = $1 AND a.operation = 'refund' FOR UPDATE OF c`, [t.attemptId]);
      // A proposal's refund has no charge: its refund row stands in, as in lockChargeAndAttempt.
      await em.query(`SELECT r.id FROM refunds r JOIN charge_attempts a ON a.refund_id = r.id WHERE a.id = $1 AND a.charge_id IS NULL FOR UPDATE OF r`, [t.attemptId]);
    }
    const terminal = isTerminal(t.to);
    const { providerChargeId, ...otherColumns } = t.set ?? {};
    const query = em
      .createQueryBuilder()
      .update(ChargeAttemptEntity)
      .set({
        ...otherColumns,
        // Evidence is never erased: a result that names no provider charge keeps the one a webhook stored.
        ...(providerChargeId ? { providerChargeId } : {}),
        status: t.to,
        leaseExpiresAt: null,
        nextSendAt: null,
        // A sender whose lease ran out may have been on the wire until the lease's end, not longer.
        ...(t.sendEnded ? { lastSendEndedAt: () => 'clock_timestamp()' } : {}),
        ...(t.expectLeaseExpired ? { lastSendEndedAt: () => 'GREATEST(last_send_ended_at, lease_expires_at)' } : {}),
        ...(t.to === 'unknown' ? { unknownSince: () => 'now()' } : {}),
        ...(terminal ? { resolvedAt: () => 'now()', resolvedBy: t.cause } : {}),
      })
      .where('id = :id AND status = :from', { id: t.attemptId, from: t.from })
      // Property names: TypeORM maps them to columns (raw rows are keyed by column name).
      .returning(['provider', 'unknownSince', 'operation', 'refundId', 'payoutId']);
    // Never swap one provider charge for another: that is a second charge for a person, not an update.
    if (providerChargeId) query.andWhere('(provider_charge_id IS NULL OR provider_charge_id = :pcid)', { pcid: providerChargeId });
    if (t.expectHttpAttempts !== undefined) query.andWhere('http_attempts = :n', { n: t.expectHttpAttempts });
    if (t.expectLeaseExpired) query.andWhere('lease_expires_at < now()');
    const result = await query.execute();
    if (result.affected !== 1) return false;
    await em.insert(AttemptTransitionEntity, {
      attemptId: t.attemptId,
      fromStatus: t.from,
      toStatus: t.to,
      cause: t.cause,
      actor: t.actor,
      detail: t.detail ?? null,
    });
    const row = (result.raw as Array<{ provider: string; unknown_since: Date | null; operation: string; refund_id: string | null; payout_id: string | null }>)[0];
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
