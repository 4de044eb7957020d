import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { keysetSql, listCursor, listLimit, listStatus, listUuid, pageOf, positionSql, type ListPage, type ListPosition, type RawQuery } from '@app/common';
import { preparedQuery } from '@app/database';
import { merchantScope, type Actor } from '@app/auth';
import { MerchantRequiredError } from '@app/charges';
import type { RefundStatus } from './rules/refund-status.js';

export const REFUND_STATUSES: readonly RefundStatus[] = ['processing', 'in_review', 'succeeded', 'failed'];

/** A line of the merchant's refund list (GET /refunds/:id has its attempts). */
export interface RefundSummaryLine {
  id: string;
  chargeId: string;
  amountCents: number;
  currency: string;
  status: RefundStatus;
  reason: string | null;
  createdAt: string;
}

interface RefundLineRow {
  id: string; charge_id: string; amount_cents: string; currency: string; status: RefundStatus; reason: string | null; created_at: Date; at_us: string;
}

/**
 * One merchant's refunds, newest first: a range of ix_list_statuses_page with a status, of ix_refunds_charge_page
 * for one charge, of ix_refunds_merchant_page otherwise. Scoped by merchant in the SQL: another merchant's charge
 * id lists nothing.
 */
@Injectable()
export class RefundList {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(query: RawQuery, caller: Actor): Promise<ListPage<RefundSummaryLine>> {
    const merchantId = merchantScope(caller);
    if (!merchantId) throw new MerchantRequiredError('listing refunds');
    const filters = refundListFilters(query);
    const { name, sql, params } = refundListStatement(merchantId, filters);
    const limit = filters.limit;
    const rows = await preparedQuery<RefundLineRow>(this.db, name, sql, params);
    return pageOf(rows, limit, (r) => ({
      id: r.id, chargeId: r.charge_id, amountCents: Number(r.amount_cents), currency: r.currency, status: r.status, reason: r.reason,
      createdAt: r.created_at.toISOString(),
    }));
  }
}

export interface RefundListFilters {
  status: RefundStatus | null;
  chargeId: string | null;
  position: ListPosition | null;
  limit: number;
}

export function refundListFilters(query: RawQuery): RefundListFilters {
  return { status: listStatus(query, REFUND_STATUSES), chargeId: listUuid(query, 'chargeId'), position: listCursor(query), limit: listLimit(query) };
}

/** The page's one statement (exported so test/merchant-lists-indexes.test.ts EXPLAINs exactly what runs). */
export function refundListStatement(merchantId: string, filters: RefundListFilters): { name: string; sql: string; params: unknown[] } {
  const { status, chargeId, position, limit } = filters;
  const params: unknown[] = [merchantId];
  // One charge has few refunds: its own index, the status read beside each row; otherwise the status index.
  const [createdAt, id] = status && chargeId === null ? ['s.created_at', 's.object_id'] : ['r.created_at', 'r.id'];
  const { where, orderBy } = keysetSql(createdAt, id, position, { from: null, to: null }, params);
  where.unshift('r.merchant_id = $1', 's.scope_id = $1');
  if (status) where.push(`s.status = $${params.push(status)}`);
  if (chargeId !== null) where.push(`r.charge_id = $${params.push(chargeId)}`);
  const sql = `
    SELECT r.id, r.charge_id, r.amount_cents, trim(r.currency) AS currency, s.status, r.reason, r.created_at, ${positionSql('r.created_at')}
      FROM refunds r JOIN list_statuses s ON s.object_type = 'refund' AND s.object_id = r.id
     WHERE ${where.join(' AND ')}
     ORDER BY ${orderBy} LIMIT $${params.push(limit + 1)}`;
  const shape = [status, chargeId, position].map((v) => (v === null ? '0' : '1')).join('');
  return { name: `list_refunds_v1_${shape}`, sql, params };
}
