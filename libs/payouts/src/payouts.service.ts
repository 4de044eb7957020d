import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptSender } from '@app/attempts';
import { merchantScope, type Actor } from '@app/auth';
import { AttemptEntity, PayoutEntity } from '@app/database';
import { PixPayoutGateway } from '@app/gateways';
import { hasOpenReviewItem } from '@app/review/items';
import { AccountsService } from '@app/ledger';
import { PayoutOpener, type NewPayout } from './payout-opener.service.js';
import { toPayoutView, type PayoutReturnView, type PayoutView } from './payout.view.js';
import { InvalidPixKeyError, PayoutNotFoundError } from './payouts.errors.js';
import { pixKeyProblem } from './rules/pix-key.js';

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

  async create(accountId: string, input: NewPayout, actor: Actor): Promise<PayoutView> {
    const problem = pixKeyProblem(input.pixKeyType, input.pixKey);
    if (problem) throw new InvalidPixKeyError(problem);
    const account = await this.accounts.visibleAccount(accountId, actor);
    const { payout, attempt } = await this.opener.create(account, input, actor.name);
    await this.sender.sendClaimed(attempt, actor.name);
    return this.render(payout.id);
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
