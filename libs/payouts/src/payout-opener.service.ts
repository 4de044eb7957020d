import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptOpener, payloadHash } from '@app/attempts';
import { IdempotencyKeyReusedError } from '@app/charges';
import { AttemptEntity, PayoutEntity, isUniqueViolation, type LedgerAccountEntity } from '@app/database';
import { PixPayoutGateway } from '@app/gateways';
import { LedgerService } from '@app/ledger';
import { AccountOwesError, PayoutCurrencyUnsupportedError } from './payouts.errors.js';
import type { PixKeyType } from './rules/pix-key.js';
import { payoutAttemptIdOf } from './rules/survivable-payout-ids.js';

export interface NewPayout {
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
}

export interface OpenedPayout {
  payout: PayoutEntity;
  /** Its first attempt, opened and claimed now; null when the payout already existed and nothing was reserved now. */
  attempt: AttemptEntity | null;
}

/**
 * Phase 1 of a payout, in one short transaction before any network call: the amount is RESERVED on the account
 * (the ledger locks the account row; its CHECK keeps available >= 0 whoever races), then the payout and its
 * attempt are stored with the exact payload and the attempt already claimed for its first send. A refusal
 * (422 naming availableCents, or `account_owes` while a late debit is unpaid) rolls everything back, so a refused payout leaves no row behind. The reservation's
 * ledger reference is the attempt id, which is also the idempotency key the transfer id (idEnvio) derives from.
 */
@Injectable()
export class PayoutOpener {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly pix: PixPayoutGateway,
    private readonly ledger: LedgerService,
    private readonly opener: AttemptOpener,
  ) {}

  /**
   * `payoutId`: random, or derived (rules/survivable-payout-ids.ts) from what a retry carries again. A derived
   * payout that already exists is a retry whose first run committed (its response or its Idempotency-Key record
   * lost): the same request is answered with it, nothing reserved or opened again; another request under the
   * same id is the key reused (422), nothing changed.
   * `within`: a caller's transaction (a second admin confirming a payout request, with the request's guarded
   * update), which then owns the commit; the balance is still checked and reserved here, under the account lock.
   */
  async create(account: LedgerAccountEntity, input: NewPayout, actor: string, payoutId: string, within?: EntityManager): Promise<OpenedPayout> {
    const currency = account.currency.trim();
    if (currency !== 'brl') throw new PayoutCurrencyUnsupportedError(account.id, currency, this.pix.provider);
    const run = async (em: EntityManager): Promise<OpenedPayout> => {
      // Under the lock the reservation takes, so no late debit can slip in between the check and the reserve, and a
      // retry of the same payout waits here for its twin's commit and then finds its row.
      const locked = await this.ledger.lockAccount(em, account.id);
      const existing = await em.findOneBy(PayoutEntity, { id: payoutId });
      if (existing) {
        if (!sameRequest(existing, account.id, input)) throw new IdempotencyKeyReusedError();
        return { payout: existing, attempt: null };
      }
      if (locked.owedCents > 0) throw new AccountOwesError(account.id, locked.owedCents, currency);
      // Derived from the payout, so an attempt opened again after its row was lost has the lost one's idEnvio.
      const attemptId = payoutAttemptIdOf(payoutId, 0);
      await this.ledger.reserve(em, account.id, input.amountCents, attemptId, actor);
      const payout = Object.assign(new PayoutEntity(), {
        id: payoutId,
        accountId: account.id,
        amountCents: input.amountCents,
        currency,
        provider: this.pix.provider,
        pixKey: input.pixKey,
        pixKeyType: input.pixKeyType,
        description: input.description,
        createdBy: actor,
      });
      await em.insert(PayoutEntity, payout);
      const attempt = await this.opener.openFirstAttempt(em, this.encode(attemptId, payout), actor);
      return { payout, attempt };
    };
    if (within) return run(within);
    try {
      return await this.db.transaction(run);
    } catch (error) {
      // Twins wait for each other at the account lock; should anything insert the row without it, the primary key is
      // the last word, and the decision is made again with that row there (answered, or the key reused), never a 500.
      if (!isUniqueViolation(error, 'payouts_pkey')) throw error;
      return this.db.transaction(run);
    }
  }

  /** Its idempotency key is its own id: the transfer id derives from either. */
  private encode(id: string, payout: PayoutEntity): AttemptEntity {
    const payload = this.pix.encodePixSend({ attemptId: id, amountCents: payout.amountCents, currency: payout.currency, payeePixKey: payout.pixKey, description: payout.description });
    return Object.assign(new AttemptEntity(), {
      id,
      chargeId: null,
      operation: 'payout',
      refundId: null,
      payoutId: payout.id,
      // The transfer id sent to the provider derives from this key (Efí idEnvio: the uuid as 32 hex characters).
      idempotencyKey: id,
      provider: payout.provider,
      status: 'pending',
      payload,
      payloadHash: payloadHash(payload),
      httpAttempts: 0,
    });
  }
}

/** The retry asks for what the stored payout is: the same account, amount and payee, and the same description. */
function sameRequest(payout: PayoutEntity, accountId: string, input: NewPayout): boolean {
  return (
    payout.accountId === accountId &&
    payout.amountCents === input.amountCents &&
    payout.pixKey === input.pixKey &&
    payout.pixKeyType === input.pixKeyType &&
    payout.description === input.description
  );
}
