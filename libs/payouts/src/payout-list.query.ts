import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { keysetSql, listCursor, listLimit, listStatus, pageOf, positionSql, type ListPage, type ListPosition, type RawQuery } from '@app/common';
import { preparedQuery } from '@app/database';
import { merchantScope, type Actor } from '@app/auth';
import { AccountNotFoundError } from '@app/ledger';
import type { PayoutStatus } from './payout.view.js';

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['processing', 'in_review', 'succeeded', 'failed'];

/** A line of an account's payout list (GET /payouts/:id has its attempts and returns). */
export interface PayoutSummary {
  id: string;
  accountId: string;
  amountCents: number;
  currency: string;
  pixKeyType: string;
  description: string | null;
  status: PayoutStatus;
  createdAt: string;
}

interface PayoutSummaryRow {
  id: string; account_id: string; amount_cents: string; currency: string; pix_key_type: string; description: string | null; status: PayoutStatus;
  created_at: Date; at_us: string;
}

/**
 * One account's payouts, newest first: a range of ix_list_statuses_page (scope: the account) with a status, of
 * ix_payouts_account_page otherwise. The account must be the caller's merchant's (an admin's: any), checked in
 * the same statement, so another merchant's account is a 404 exactly like a missing one.
 */
@Injectable()
export class PayoutList {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(accountId: string, query: RawQuery, caller: Actor): Promise<ListPage<PayoutSummary>> {
    const merchantId = merchantScope(caller);
    const filters = payoutListFilters(query);
    const { name, sql, params } = payoutListStatement(accountId, merchantId, filters);
    const limit = filters.limit;
    const rows = await preparedQuery<PayoutSummaryRow>(this.db, name, sql, params);
    if (rows.length === 0) throw new AccountNotFoundError(accountId);
    const found = rows.filter((r) => r.id !== null);
    return pageOf(found, limit, (r) => ({
      id: r.id, accountId: r.account_id, amountCents: Number(r.amount_cents), currency: r.currency, pixKeyType: r.pix_key_type,
      description: r.description, status: r.status, createdAt: r.created_at.toISOString(),
    }));
  }
}

export interface PayoutListFilters {
  status: PayoutStatus | null;
  position: ListPosition | null;
  limit: number;
}

export function payoutListFilters(query: RawQuery): PayoutListFilters {
  return { status: listStatus(query, PAYOUT_STATUSES), position: listCursor(query), limit: listLimit(query) };
}

/**
 * The page's one statement (exported so test/merchant-lists-indexes.test.ts EXPLAINs exactly what runs). The
 * account row comes along (the page is a LATERAL join from it): no row at all means not this caller's account.
 * `merchantId` null: an admin, who may read any account.
 */
export function payoutListStatement(accountId: string, merchantId: string | null, filters: PayoutListFilters): { name: string; sql: string; params: unknown[] } {
  const { status, position, limit } = filters;
  const params: unknown[] = [accountId, merchantId];
  const [createdAt, id] = status ? ['s.created_at', 's.object_id'] : ['p.created_at', 'p.id'];
  const { where, orderBy } = keysetSql(createdAt, id, position, { from: null, to: null }, params);
  where.unshift('p.account_id = $1', 's.scope_id = $1');
  if (status) where.push(`s.status = $${params.push(status)}`);
  const sql = `
    SELECT page.*
      FROM ledger_accounts la
      LEFT JOIN LATERAL (
        SELECT p.id, p.account_id, p.amount_cents, trim(p.currency) AS currency, p.pix_key_type, p.description, s.status, p.created_at,
               ${positionSql('p.created_at')}
          FROM payouts p JOIN list_statuses s ON s.object_type = 'payout' AND s.object_id = p.id
         WHERE ${where.join(' AND ')}
         ORDER BY ${orderBy} LIMIT $${params.push(limit + 1)}) page ON true
     WHERE la.id = $1 AND ($2::uuid IS NULL OR la.merchant_id = $2)`;
  const shape = [status, position].map((v) => (v === null ? '0' : '1')).join('');
  return { name: `list_payouts_v1_${shape}`, sql, params };
}
