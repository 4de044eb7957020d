import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { keysetSql, listCreatedRange, listCursor, listLimit, listStatus, listText, pageOf, positionSql, type CreatedRange, type ListPage, type ListPosition, type RawQuery } from '@app/common';
import { preparedQuery } from '@app/database';
import { merchantScope, type Actor } from '@app/auth';
import { MerchantRequiredError } from './charges.errors.js';
import { CHARGE_STATUSES, type ChargeStatus } from './rules/charge-status.js';

/** A line of the merchant's charge list: what finds a charge again, not its attempts (GET /charges/:id has those). */
export interface ChargeSummary {
  id: string;
  orderId: string;
  amountCents: number;
  currency: string;
  customerId: string;
  provider: string;
  status: ChargeStatus;
  refundedCents: number;
  createdAt: string;
}

interface ChargeSummaryRow {
  id: string; order_id: string; amount_cents: string; currency: string; customer_id: string; provider: string; status: ChargeStatus;
  refunded_cents: string; created_at: Date; at_us: string;
}

/**
 * One merchant's charges, newest first, one indexed query a page. The status is the stored list status
 * (list_statuses, kept at commit with the outbox): with a status filter the page is a range of
 * ix_list_statuses_page, otherwise of ix_charges_merchant_page (or its customer twin, or the (merchant, order) key).
 */
@Injectable()
export class ChargeList {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(query: RawQuery, caller: Actor): Promise<ListPage<ChargeSummary>> {
    const merchantId = merchantScope(caller);
    if (!merchantId) throw new MerchantRequiredError('listing charges');
    const filters = chargeListFilters(query);
    const { name, sql, params } = chargeListStatement(merchantId, filters);
    const limit = filters.limit;
    const rows = await preparedQuery<ChargeSummaryRow>(this.db, name, sql, params);
    return pageOf(rows, limit, (r) => ({
      id: r.id, orderId: r.order_id, amountCents: Number(r.amount_cents), currency: r.currency, customerId: r.customer_id, provider: r.provider,
      status: r.status, refundedCents: Number(r.refunded_cents), createdAt: r.created_at.toISOString(),
    }));
  }
}

export interface ChargeListFilters {
  status: ChargeStatus | null;
  orderId: string | null;
  customerId: string | null;
  range: CreatedRange;
  position: ListPosition | null;
  limit: number;
}

/** Every parameter checked before any SQL: a bad one is a 400 naming it. */
export function chargeListFilters(query: RawQuery): ChargeListFilters {
  return {
    status: listStatus(query, CHARGE_STATUSES),
    orderId: listText(query, 'orderId'),
    customerId: listText(query, 'customerId'),
    range: listCreatedRange(query),
    position: listCursor(query),
    limit: listLimit(query),
  };
}

/** The page's one statement (exported so test/merchant-lists-indexes.test.ts EXPLAINs exactly what runs). */
export function chargeListStatement(merchantId: string, filters: ChargeListFilters): { name: string; sql: string; params: unknown[] } {
  const { status, orderId, customerId, range, position, limit } = filters;
  const params: unknown[] = [merchantId];
  // The filtered page walks the status index; its created_at and id are the charge's own, copied at birth.
  const [createdAt, id] = status ? ['s.created_at', 's.object_id'] : ['c.created_at', 'c.id'];
  const { where, orderBy } = keysetSql(createdAt, id, position, range, params);
  where.unshift(status ? `s.scope_id = $1 AND s.status = $${params.push(status)}` : 'c.merchant_id = $1');
  if (status) where.push('c.merchant_id = $1');
  if (orderId !== null) where.push(`c.order_id = $${params.push(orderId)}`);
  if (customerId !== null) where.push(`c.customer_id = $${params.push(customerId)}`);
  const sql = `
    SELECT c.id, c.order_id, c.amount_cents, c.currency, c.customer_id, c.provider, s.status, c.refunded_cents, c.created_at, ${positionSql('c.created_at')}
      FROM ${status ? 'list_statuses s JOIN charges c ON c.id = s.object_id' : 'charges c JOIN list_statuses s ON s.object_id = c.id'}
     WHERE s.object_type = 'charge' AND ${where.join(' AND ')}
     ORDER BY ${orderBy} LIMIT $${params.push(limit + 1)}`;
  // One named statement per shape of filters: each keeps its own plan.
  const shape = [status, orderId, customerId, range.from, range.to, position].map((v) => (v === null ? '0' : '1')).join('');
  return { name: `list_charges_v1_${shape}`, sql, params };
}
