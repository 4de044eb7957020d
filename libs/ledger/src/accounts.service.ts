import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { isoCurrency, keysetSql, listCreatedRange, listCursor, listLimit, pageOf, positionSql, type ListPage, type RawQuery } from '@app/common';
import { LedgerAccountEntity, LedgerEntryEntity } from '@app/database';
import { merchantScope, type Actor } from '@app/auth';
import { askSecondPerson, claimForConfirmation, markConfirmed } from './four-eyes-requests.store.js';
import { AccountCurrencyNotSupportedError, AccountNotFoundError, OwnerTokenUnknownError } from './ledger.errors.js';
import { needsSecondPerson } from './rules/four-eyes.js';
import { toEntryView, type BalanceView, type LedgerEntryView, type LedgerMovement } from './ledger-entry.view.js';
import { LedgerService } from './ledger.service.js';

export interface AccountView extends BalanceView {
  id: string;
  ownerTokenName: string;
  createdAt: string;
}

export interface EntriesPage {
  entries: LedgerEntryView[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A large credit waiting for a second admin: nothing moved yet. */
export interface CreditRequestView {
  request: { id: string; amountCents: number; reference: string; requestedBy: string; state: string; confirmedBy: string | null };
  balance: BalanceView;
}

export interface CreditView extends LedgerMovement {
  balance: BalanceView;
}

export const ENTRIES_PAGE_DEFAULT = 50;
export const ENTRIES_PAGE_MAX = 200;

/** The HTTP-facing side of the ledger: accounts, who may see them, funding. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ledger: LedgerService,
    private readonly config: AppConfig,
  ) {}

  async create(input: { ownerTokenName: string; currency: string }, actor: Actor): Promise<AccountView> {
    // Before anything is read or written: xxx, xts or gold is no balance anyone can hold or pay out.
    if (!isoCurrency(input.currency)) throw new AccountCurrencyNotSupportedError(input.currency);
    // The foreign key refuses a name that does not exist; only a merchant token may own money, and that needs a look.
    const [owner] = await this.db.query<Array<{ role: string; merchant_id: string | null }>>(
      `SELECT role, merchant_id FROM api_tokens WHERE name = $1 AND revoked_at IS NULL`,
      [input.ownerTokenName],
    );
    if (owner?.role !== 'merchant' || !owner.merchant_id) throw new OwnerTokenUnknownError(input.ownerTokenName);
    const repo = this.db.getRepository(LedgerAccountEntity);
    // The account is the owner token's merchant's: every token of that merchant sees and spends it.
    const account = await repo.save(
      repo.create({ id: randomUUID(), ownerTokenName: input.ownerTokenName, merchantId: owner.merchant_id, currency: input.currency, createdBy: actor.name }),
    );
    return toAccountView(await repo.findOneByOrFail({ id: account.id }));
  }

  async view(accountId: string, actor: Actor): Promise<AccountView> {
    return toAccountView(await this.visibleAccount(accountId, actor));
  }

  /** The caller's merchant's accounts (an admin's: every one), newest first, keyset by (created_at, id). */
  async list(query: RawQuery, actor: Actor): Promise<ListPage<AccountView>> {
    const merchantId = merchantScope(actor);
    const position = listCursor(query);
    const limit = listLimit(query);
    const params: unknown[] = [merchantId];
    const { where, orderBy } = keysetSql('created_at', 'id', position, listCreatedRange({}), params);
    const rows = await this.db.query<Array<AccountRow & { at_us: string }>>(
      `SELECT id, owner_token_name, available_cents, reserved_cents, owed_cents, trim(currency) AS currency, created_at, ${positionSql('created_at')}
         FROM ledger_accounts WHERE ($1::uuid IS NULL OR merchant_id = $1) ${where.map((w) => `AND ${w}`).join(' ')}
        ORDER BY ${orderBy} LIMIT $${params.push(limit + 1)}`,
      params,
    );
    return pageOf(rows, limit, (r) => ({
      id: r.id, ownerTokenName: r.owner_token_name, availableCents: Number(r.available_cents), reservedCents: Number(r.reserved_cents),
      owedCents: Number(r.owed_cents), currency: r.currency, createdAt: r.created_at.toISOString(),
    }));
  }

  async balance(accountId: string, actor: Actor): Promise<BalanceView> {
    return toBalance(await this.visibleAccount(accountId, actor));
  }

  /** Oldest first, keyset by entry id: a page never shifts when entries are added after it. */
  async entries(accountId: string, actor: Actor, page: { after?: string; limit?: number }): Promise<EntriesPage> {
    await this.visibleAccount(accountId, actor);
    const limit = page.limit ?? ENTRIES_PAGE_DEFAULT;
    const query = this.db
      .getRepository(LedgerEntryEntity)
      .createQueryBuilder('e')
      .where('e.account_id = :accountId', { accountId })
      .orderBy('e.id', 'ASC')
      .limit(limit + 1);
    if (page.after !== undefined) query.andWhere('e.id > :after', { after: page.after });
    const rows = await query.getMany();
    const entries = rows.slice(0, limit).map(toEntryView);
    return { entries, nextCursor: rows.length > limit ? entries[entries.length - 1].id : null };
  }

  /**
   * Admin funding: exactly once per (account, reference), in one transaction with the balance it moves. At or above
   * REVIEW_FOUR_EYES_AMOUNT_CENTS it only asks: the money moves when another admin (another person) confirms
   * (the four-eyes requests store, shared with admin payouts).
   */
  async credit(accountId: string, input: { amountCents: number; reference: string }, actor: Actor): Promise<CreditView | CreditRequestView> {
    if (needsSecondPerson(input.amountCents, this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS)) return this.requestCredit(accountId, input, actor);
    return this.db.transaction(async (em) => {
      const movement = await this.ledger.credit(em, accountId, input.amountCents, input.reference, actor.name);
      const account = await em.getRepository(LedgerAccountEntity).findOneByOrFail({ id: accountId });
      return { ...movement, balance: toBalance(account) };
    });
  }

  /** The second admin: writes the asked credit, once, in the transaction that marks the request confirmed. */
  async confirmCredit(accountId: string, requestId: string, actor: Actor, reason: string): Promise<CreditView> {
    return this.db.transaction(async (em) => {
      const request = await claimForConfirmation(em, 'credit', accountId, requestId, actor.name);
      const movement = await this.ledger.credit(em, accountId, request.amountCents, request.reference, request.requestedBy);
      await markConfirmed(em, requestId, actor.name, reason);
      const account = await em.getRepository(LedgerAccountEntity).findOneByOrFail({ id: accountId });
      return { ...movement, balance: toBalance(account) };
    });
  }

  private async requestCredit(accountId: string, input: { amountCents: number; reference: string }, actor: Actor): Promise<CreditRequestView> {
    const account = await this.db.getRepository(LedgerAccountEntity).findOneBy({ id: accountId });
    if (!account) throw new AccountNotFoundError(accountId);
    const request = await askSecondPerson(this.db.manager, { kind: 'credit', accountId, amountCents: input.amountCents, reference: input.reference, requestedBy: actor.name });
    return {
      request: { id: request.id, amountCents: request.amountCents, reference: request.reference, requestedBy: request.requestedBy, state: request.state, confirmedBy: request.confirmedBy },
      balance: toBalance(account),
    };
  }

  /** Whether money this admin moves on an account must wait for a second person (credits, payouts alike). */
  needsSecondPerson(amountCents: number): boolean {
    return needsSecondPerson(amountCents, this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS);
  }

  /**
   * The account if this actor may see and spend it: its merchant's, or any for an admin. Scoped in the SQL, so
   * another merchant's account is not found, exactly like a missing one (no existence oracle). Payouts read through it.
   */
  async visibleAccount(accountId: string, actor: Actor): Promise<LedgerAccountEntity> {
    const merchantId = merchantScope(actor);
    const account = await this.db.getRepository(LedgerAccountEntity).findOneBy({ id: accountId, ...(merchantId ? { merchantId } : {}) });
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }
}

function toBalance(account: LedgerAccountEntity): BalanceView {
  return { availableCents: account.availableCents, reservedCents: account.reservedCents, owedCents: account.owedCents, currency: account.currency };
}

interface AccountRow {
  id: string; owner_token_name: string; available_cents: string; reserved_cents: string; owed_cents: string; currency: string; created_at: Date;
}

function toAccountView(account: LedgerAccountEntity): AccountView {
  return { id: account.id, ownerTokenName: account.ownerTokenName, ...toBalance(account), createdAt: account.createdAt.toISOString() };
}
