import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptOpener, payloadHash } from '@app/attempts';
import { AttemptEntity, PayoutEntity, type LedgerAccountEntity } from '@app/database';
import { PixPayoutGateway } from '@app/gateways';
import { LedgerService } from '@app/ledger';
import { AccountOwesError, PayoutCurrencyUnsupportedError } from './payouts.errors.js';
import type { PixKeyType } from './rules/pix-key.js';

export interface NewPayout {
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
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
   * `within`: a caller's transaction (a second admin confirming a payout request, with the request's guarded
   * update), which then owns the commit; the balance is still checked and reserved here, under the account lock.
   */
  async create(account: LedgerAccountEntity, input: NewPayout, actor: string, within?: EntityManager): Promise<{ payout: PayoutEntity; attempt: AttemptEntity }> {
    const currency = account.currency.trim();
    if (currency !== 'brl') throw new PayoutCurrencyUnsupportedError(account.id, currency, this.pix.provider);
    const run = async (em: EntityManager) => {
      const attemptId = randomUUID();
      // Under the lock the reservation takes, so no late debit can slip in between the check and the reserve.
      const locked = await this.ledger.lockAccount(em, account.id);
      if (locked.owedCents > 0) throw new AccountOwesError(account.id, locked.owedCents, currency);
      await this.ledger.reserve(em, account.id, input.amountCents, attemptId, actor);
      const payout = Object.assign(new PayoutEntity(), {
        id: randomUUID(),
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
    return within ? run(within) : this.db.transaction(run);
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
