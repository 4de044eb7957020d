import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '@app/config';
import type { ReviewItemState } from '@app/database';
import { ReviewInputInvalidError, ReviewItemNotFoundError } from './review.errors.js';
import type { OlderThan } from './rules/older-than.js';
import { readReviewEvidence, type ReviewEvidence } from './review-evidence.query.js';
import { ITEM_SELECT, toReviewItemView, type ReviewItemRow, type ReviewItemView } from './review-item.view.js';
import { msInterval } from '@app/database';

export interface ReviewQueueFilter {
  /** Absent: every item still waiting for a person (anything but closed). */
  state?: ReviewItemState;
  provider?: string;
  reason?: string;
  /** Only this merchant's items (charges, their refunds, payouts from its accounts). */
  merchantId?: string;
  minAmountCents?: number;
  /** Only items opened more than this long ago (database clock), or before this instant. */
  olderThan?: OlderThan;
  cursor?: string;
  limit?: number;
}

export interface ReviewQueuePage {
  items: ReviewItemView[];
  nextCursor: string | null;
}

export interface ReviewAuditView {
  id: string;
  at: string;
  actor: string;
  action: string;
  decision: string | null;
  reason: string | null;
  stateBefore: string;
  stateAfter: string;
  evidence: unknown;
}

const STATE_FILTER: Record<ReviewItemState, string> = {
  open: `(r.state = 'open' OR (r.state = 'claimed' AND r.claim_expires_at <= now()))`,
  claimed: `(r.state = 'claimed' AND r.claim_expires_at > now())`,
  awaiting_second: `r.state = 'awaiting_second'`,
  closed: `r.state = 'closed'`,
};

/** The read side of the queue: oldest first, keyset-paged, every item with its charge's money facts. */
@Injectable()
export class ReviewQueueService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async list(filter: ReviewQueueFilter): Promise<ReviewQueuePage> {
    const limit = filter.limit ?? 50;
    const params: unknown[] = [];
    const where: string[] = [filter.state ? STATE_FILTER[filter.state] : `r.state <> 'closed'`];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.provider) where.push(`COALESCE(a.provider, r.gap_provider) = ${param(filter.provider)}`);
    if (filter.reason) where.push(`r.reason = ${param(filter.reason)}`);
    if (filter.merchantId) where.push(`m.id = ${param(filter.merchantId)}`);
    if (filter.minAmountCents !== undefined) where.push(`c.amount_cents >= ${param(filter.minAmountCents)}`);
    if (filter.olderThan?.kind === 'age') where.push(`r.created_at < now() - ${msInterval(param(filter.olderThan.ms) as `$${number}`)}`);
    if (filter.olderThan?.kind === 'before') where.push(`r.created_at < ${param(filter.olderThan.at)}`);
    if (filter.cursor) {
      const [at, id] = decodeCursor(filter.cursor);
      where.push(`(r.created_at, r.id) > (${param(at)}::timestamptz, ${param(id)}::uuid)`);
    }
    const rows = await this.db.query<ReviewItemRow[]>(
      `${ITEM_SELECT} WHERE ${where.join(' AND ')} ORDER BY r.created_at, r.id LIMIT ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => toReviewItemView(row, this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS)),
      nextCursor: rows.length > limit && last ? encodeCursor(last.cursor_at, last.id) : null,
    };
  }

  async get(id: string, em: EntityManager = this.db.manager): Promise<ReviewItemView> {
    return toReviewItemView(await this.row(id, em), this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS);
  }

  async getWithEvidence(id: string): Promise<ReviewItemView & { evidence: ReviewEvidence }> {
    const row = await this.row(id, this.db.manager);
    const [{ evidence: snapshot }] = await this.db.query<Array<{ evidence: unknown }>>(`SELECT evidence FROM review_items WHERE id = $1`, [id]);
    const gap = row.gap_day ? { provider: row.provider, day: row.gap_day } : null;
    const evidence = await readReviewEvidence(this.db.manager, { chargeId: row.charge_id, payoutId: row.payout_id, refundId: row.refund_id, gap }, snapshot);
    return { ...toReviewItemView(row, this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS), evidence };
  }

  async audit(id: string): Promise<ReviewAuditView[]> {
    await this.row(id, this.db.manager);
    const rows = await this.db.query<Array<Omit<ReviewAuditView, 'at'> & { at: Date }>>(
      `SELECT a.id::text AS id, a.at, a.actor, a.action, a.decision, a.reason, a.state_before AS "stateBefore", a.state_after AS "stateAfter", a.evidence
         FROM review_audit a WHERE a.review_item_id = $1 ORDER BY a.id`,
      [id],
    );
    return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
  }

  /** The item as of now (an expired claim reads open). */
  async row(id: string, em: EntityManager): Promise<ReviewItemRow> {
    const [row] = await em.query<ReviewItemRow[]>(`${ITEM_SELECT} WHERE r.id = $1`, [id]);
    if (!row) throw new ReviewItemNotFoundError(id);
    return row;
  }
}

function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && !Number.isNaN(Date.parse(value[0])) && typeof value[1] === 'string' && /^[0-9a-f-]{36}$/i.test(value[1])) {
      return [value[0], value[1]];
    }
  } catch {
    // fall through: any undecodable cursor is the same client error
  }
  throw new ReviewInputInvalidError('cursor', 'is not a cursor this endpoint returned');
}
