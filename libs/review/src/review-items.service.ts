import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionEntity, ChargeAttemptEntity, ProviderCallEntity } from '@app/database';

/**
 * Opens the item a person must decide, with everything known about the attempt. The partial unique
 * index keeps it to one open item per attempt however many resolvers give up at once.
 */
@Injectable()
export class ReviewItemsService {
  private readonly logger = new Logger(ReviewItemsService.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Returns true when this call opened the item, false when one was already open. */
  async open(attemptId: string, reason: string, findings: Record<string, unknown>): Promise<boolean> {
    const evidence = { ...(await this.gatherEvidence(attemptId)), findings };
    const inserted = await this.db.query<unknown[]>(
      `INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, $3, $4, 'open')
       ON CONFLICT (attempt_id) WHERE state <> 'closed' DO NOTHING RETURNING id`,
      [randomUUID(), attemptId, reason, evidence],
    );
    if (inserted.length > 0) this.logger.warn({ attemptId, reason }, 'review item opened');
    return inserted.length > 0;
  }

  private async gatherEvidence(attemptId: string): Promise<Record<string, unknown>> {
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: attemptId });
    const calls = await this.db.getRepository(ProviderCallEntity).find({ where: { attemptId }, order: { at: 'ASC' } });
    const transitions = await this.db.getRepository(AttemptTransitionEntity).find({ where: { attemptId }, order: { at: 'ASC' } });
    return {
      attempt: {
        id: attempt.id,
        chargeId: attempt.chargeId,
        idempotencyKey: attempt.idempotencyKey,
        provider: attempt.provider,
        status: attempt.status,
        providerChargeId: attempt.providerChargeId,
        httpAttempts: attempt.httpAttempts,
        resolutionTries: attempt.resolutionTries,
        createdAt: attempt.createdAt,
        unknownSince: attempt.unknownSince,
        lastError: attempt.lastError,
      },
      payload: attempt.payload,
      providerCalls: calls.map((c) => ({ at: c.at, kind: c.kind, outcome: c.outcome, httpStatus: c.httpStatus, durationMs: c.durationMs, detail: c.detail })),
      transitions: transitions.map((t) => ({ at: t.at, from: t.fromStatus, to: t.toStatus, cause: t.cause, actor: t.actor, detail: t.detail })),
    };
  }
}
