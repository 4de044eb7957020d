import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptSender } from '@app/attempts';
import { idempotencyScope, merchantScope, type Actor } from '@app/auth';
import { AttemptEntity, PayoutEntity } from '@app/database';
import { PixPayoutGateway } from '@app/gateways';
import { hasOpenReviewItem } from '@app/review/items';
import { AccountsService, PayoutRequestNotFoundError, askSecondPerson, claimForConfirmation, markConfirmed, payoutRequestsOf, toFourEyesRequestView, type FourEyesRequestView, type PayoutRequestDetailView } from '@app/ledger';
import { PayoutOpener, type NewPayout, type OpenedPayout } from './payout-opener.service.js';
import { toPayoutView, type PayoutReturnView, type PayoutView } from './payout.view.js';
import { InvalidPixKeyError, PayoutNotFoundError } from './payouts.errors.js';
import { pixKeyProblem, type PixKeyType } from './rules/pix-key.js';
import { confirmedPayoutIdOf, payoutIdOf } from './rules/survivable-payout-ids.js';

/** A payout an admin asked for from a merchant's account, waiting for a second person: nothing reserved or sent. */
export interface PayoutRequestView {
  request: FourEyesRequestView & { pixKeyType: string; description: string | null };
}

/**
 * Money out of an account the caller owns: reserve and open (one transaction), then one provider call by the
 * one sender. Retries, resolution, webhooks and review are the attempts' own machinery; the transition writer
 * turns the reservation into a debit or a release when the attempt ends.
 */
@Injectable()
export class PayoutsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    private readonly opener: PayoutOpener,
    private readonly sender: AttemptSender,
    private readonly pix: PixPayoutGateway,
  ) {}

  /**
   * The account's merchant pays out at once. An admin (a person other than the owning merchant) does too below
   * REVIEW_FOUR_EYES_AMOUNT_CENTS, the payout and its reservation recording the admin's name; at or above it the
   * admin only asks, in the four-eyes store large credits use, and another admin confirms (`confirm`).
   */
  /** `existing`: the payout this Idempotency-Key already made (a retry after a takeover or a lost record), answered as it stands. */
  async create(accountId: string, input: NewPayout, actor: Actor, idempotencyKey?: string): Promise<{ view: PayoutView | PayoutRequestView; existing: boolean }> {
    const problem = pixKeyProblem(input.pixKeyType, input.pixKey);
    if (problem) throw new InvalidPixKeyError(problem);
    const account = await this.accounts.visibleAccount(accountId, actor);
    if (actor.role === 'admin' && this.accounts.needsSecondPerson(input.amountCents)) {
      const request = await askSecondPerson(this.db.manager, {
        kind: 'payout',
        accountId: account.id,
        amountCents: input.amountCents,
        // The caller's Idempotency-Key names the request in the database (unique per account and reference), so a
        // retry whose first try committed the ask but never stored its response finds the same request, and the
        // same key with another payee or amount is refused; without a key each ask is its own request.
        reference: idempotencyKey === undefined ? `payout-request:${randomUUID()}` : payoutRequestReference(actor, idempotencyKey),
        requestedBy: actor.name,
        payout: { pixKey: input.pixKey, pixKeyType: input.pixKeyType, description: input.description },
      });
      return { view: { request: { ...toFourEyesRequestView(request), pixKeyType: input.pixKeyType, description: input.description } }, existing: false };
    }
    // With a key the payout is named by it (rules/survivable-payout-ids.ts): a retry whose first run committed, or
    // whose commit a failover lost after the transfer left, is that payout again, never a second one.
    const payoutId = idempotencyKey === undefined ? randomUUID() : payoutIdOf(idempotencyScope(actor), account.id, idempotencyKey);
    const opened = await this.opener.create(account, input, actor.name, payoutId);
    await this.send(opened, actor.name);
    return { view: await this.render(opened.payout.id), existing: opened.attempt === null };
  }

  /**
   * The second admin: the asked payout is opened (balance checked and reserved under the account lock) in the
   * transaction that marks the request confirmed, so it opens once; an insufficient balance refuses it and leaves
   * the request waiting, nothing reserved. Sent after the commit, by the one sender, like any payout.
   */
  async confirm(accountId: string, requestId: string, actor: Actor, reason: string): Promise<PayoutView> {
    const account = await this.accounts.visibleAccount(accountId, actor);
    const opened = await this.db.transaction(async (em) => {
      const request = await claimForConfirmation(em, 'payout', account.id, requestId, actor.name);
      const asked = request.payout!;
      const input: NewPayout = { amountCents: request.amountCents, pixKey: asked.pixKey, pixKeyType: asked.pixKeyType as PixKeyType, description: asked.description };
      // Named by the request: a confirmation whose commit a failover lost is confirmed again into the same payout.
      const created = await this.opener.create(account, input, request.requestedBy, confirmedPayoutIdOf(requestId), em);
      await markConfirmed(em, requestId, actor.name, reason, created.payout.id);
      return created;
    });
    await this.send(opened, actor.name);
    return this.render(opened.payout.id);
  }

  /**
   * A payout opened now sends its claimed first attempt. One that already existed sends its attempt only if it is
   * still pending, unclaimed and due (a first run killed before it could), under the attempt's own idEnvio.
   */
  private async send(opened: OpenedPayout, actor: string): Promise<void> {
    if (opened.attempt) {
      await this.sender.sendClaimed(opened.attempt, actor);
      return;
    }
    const pending = await this.db.getRepository(AttemptEntity).findOneBy({ payoutId: opened.payout.id, operation: 'payout', status: 'pending' });
    if (pending) await this.sender.send(pending.id, actor);
  }

  /** An admin reads what the account's payout requests would send (the Pix key included) before confirming one. */
  async requests(accountId: string, actor: Actor): Promise<PayoutRequestDetailView[]> {
    const account = await this.accounts.visibleAccount(accountId, actor);
    return payoutRequestsOf(this.db.manager, account.id);
  }

  async request(accountId: string, requestId: string, actor: Actor): Promise<PayoutRequestDetailView> {
    const account = await this.accounts.visibleAccount(accountId, actor);
    const [found] = await payoutRequestsOf(this.db.manager, account.id, requestId);
    if (!found) throw new PayoutRequestNotFoundError(requestId);
    return found;
  }

  /** Only the account's merchant (or an admin) may read it, in the SQL: another merchant's payout is a 404. */
  async view(payoutId: string, actor: Actor): Promise<PayoutView> {
    const [visible] = await this.db.query<Array<{ id: string }>>(
      `SELECT p.id FROM payouts p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.id = $1 AND ($2::uuid IS NULL OR a.merchant_id = $2)`,
      [payoutId, merchantScope(actor)],
    );
    if (!visible) throw new PayoutNotFoundError(payoutId);
    return this.render(payoutId);
  }

  private async render(payoutId: string): Promise<PayoutView> {
    const payout = await this.db.getRepository(PayoutEntity).findOneByOrFail({ id: payoutId });
    const attempts = await this.db.getRepository(AttemptEntity).find({ where: { payoutId, operation: 'payout' }, order: { createdAt: 'ASC' } });
    const open = await hasOpenReviewItem(this.db.manager, 'payout', payoutId);
    const returns = await this.db.query<PayoutReturnView[]>(
      `SELECT rtr_id AS "rtrId", end_to_end_id AS "endToEndId", amount_cents::float8 AS "amountCents",
              to_char(returned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "returnedAt",
              to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "recordedAt"
         FROM payout_returns WHERE payout_id = $1 ORDER BY returned_at, rtr_id`,
      [payoutId],
    );
    return toPayoutView(payout, attempts, open, (id) => this.pix.transferIdFor(id), returns);
  }
}

/** The request's reference for a caller's Idempotency-Key: per caller (two admins' keys never meet) and hashed. */
function payoutRequestReference(actor: Actor, key: string): string {
  return `payout-request:key:${createHash('sha256').update(`${idempotencyScope(actor)}\n${key}`).digest('hex')}`;
}
