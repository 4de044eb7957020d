import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptSender } from '@app/attempts';
import { hasOpenReviewItem } from '@app/review/items';
import { AttemptEntity, RefundEntity } from '@app/database';
import { RefundOpener, type NewRefund, type RefundIdempotency } from './refund-opener.service.js';
import { toRefundView, type RefundView } from './refund.view.js';
import { RefundNotFoundError } from './refunds.errors.js';

/**
 * Money back through the attempt model: open (commit the amount and the key), then one provider call by the
 * one sender. Everything after that (retries, resolution, webhooks, review) is the attempts' own machinery.
 */
@Injectable()
export class RefundsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly opener: RefundOpener,
    private readonly sender: AttemptSender,
  ) {}

  /**
   * `idempotency`: the caller's Idempotency-Key, which names the refund. A refund that key already made is answered
   * as it stands (its pending attempt sent if due, as `submit` does), never made a second time: `existing`.
   */
  async create(input: NewRefund, actor: string, idempotency: RefundIdempotency | null = null): Promise<{ view: RefundView; existing: boolean }> {
    const opened = await this.opener.open(input, actor, idempotency);
    if (opened.kind === 'created') await this.sender.sendClaimed(opened.attempt, actor);
    else if (opened.open?.status === 'pending') await this.sender.send(opened.open.id, actor);
    return { view: await this.view(opened.refund.id), existing: opened.kind === 'existing' };
  }

  /** Sends the open attempt if it is due, or opens a new one after a failure. Safe to repeat, concurrently. */
  async submit(refundId: string, actor: string, merchantId: string | null): Promise<RefundView> {
    const opened = await this.opener.reopen(refundId, actor, merchantId);
    if (opened.kind === 'open' && opened.created) await this.sender.sendClaimed(opened.attempt, actor);
    else if (opened.kind === 'open' && opened.attempt.status === 'pending') await this.sender.send(opened.attempt.id, actor);
    return this.view(refundId);
  }

  /** `merchantId`: the caller's merchant, in the SQL (null: a reviewer or admin, who sees every merchant). */
  async view(refundId: string, merchantId: string | null = null): Promise<RefundView> {
    // One snapshot: an attempt failing (and its review item opening) between two reads must not show an
    // unknown attempt beside the item its failure opened.
    return this.db.transaction('REPEATABLE READ', async (em) => {
      const refund = await em.getRepository(RefundEntity).findOneBy({ id: refundId, ...(merchantId ? { merchantId } : {}) });
      if (!refund) throw new RefundNotFoundError(refundId);
      const attempts = await em.getRepository(AttemptEntity).find({ where: { refundId, operation: 'refund' }, order: { createdAt: 'ASC' } });
      return toRefundView(refund, attempts, await hasOpenReviewItem(em, 'refund', refundId));
    });
  }
}
