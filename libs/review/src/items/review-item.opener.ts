import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttemptTransitionEntity, AttemptEntity, ProviderCallEntity } from '@app/database';
import { writeReviewAudit } from './review-audit.writer.js';

const logger = new Logger('ReviewItems');

/**
 * Reasons that say money left twice: a later finding with one of them becomes the reason of an item already open
 * for something routine (a lease that expired, say), so a person never settles it as that routine thing. The
 * reason it replaces stays in the finding's entry.
 */
const OUTRANKING_REASONS = ['duplicate_provider_charges'];

/**
 * Opens the item a person must decide, inside the caller's transaction, so the evidence that justifies it
 * and the item commit together or not at all. The partial unique index keeps one open item per attempt; a
 * later finding for an attempt already under review is appended to that item rather than lost.
 * Every money path that learns a late truth calls it (attempts, webhooks, the resolver), so it sits in the
 * review store, which depends on nothing those paths depend on.
 * Returns true when this call opened the item.
 */
export async function openReviewItem(em: EntityManager, attemptId: string, reason: string, findings: Record<string, unknown>): Promise<boolean> {
  const evidence = { ...(await gatherEvidence(em, attemptId)), reason, findings };
  const [current] = await em.query<Array<{ id: string; state: string }>>(
    `SELECT id, state FROM review_items WHERE attempt_id = $1 AND state <> 'closed' FOR UPDATE`,
    [attemptId],
  );
  // New evidence for an item a person is deciding sends it back to the queue: nobody decides unseen facts.
  const rows = await em.query<Array<{ id: string; opened: boolean }>>(
    `INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, $3, $4, 'open')
     ON CONFLICT (attempt_id) WHERE state <> 'closed'
     DO UPDATE SET evidence = jsonb_set(review_items.evidence, '{laterFindings}',
                     COALESCE(review_items.evidence->'laterFindings', '[]'::jsonb)
                       || jsonb_build_array(jsonb_build_object('reason', $3::text, 'at', now(), 'findings', $5::jsonb, 'reasonBefore', review_items.reason))),
                   reason = CASE WHEN $3::text = ANY($6::text[]) THEN $3::text ELSE review_items.reason END,
                   state = 'open', claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL,
                   decision = NULL, decision_reason = NULL, decision_provider_charge_id = NULL, decided_by = NULL, decided_at = NULL,
                   updated_at = now()
     RETURNING id, (xmax = 0) AS opened`,
    [randomUUID(), attemptId, reason, evidence, JSON.stringify(findings), OUTRANKING_REASONS],
  );
  const opened = rows[0]?.opened === true;
  if (current && (current.state === 'claimed' || current.state === 'awaiting_second')) {
    await writeReviewAudit(em, {
      reviewItemId: current.id,
      actor: 'system',
      action: 'reopen',
      reason: `new evidence while ${current.state}: ${reason}`,
      stateBefore: current.state,
      stateAfter: 'open',
      evidence: findings,
    });
  }
  logger.warn({ attemptId, reason }, opened ? 'review item opened' : 'finding added to the open review item');
  return opened;
}

async function gatherEvidence(em: EntityManager, attemptId: string): Promise<Record<string, unknown>> {
  const attempt = await em.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
  const calls = await em.getRepository(ProviderCallEntity).find({ where: { attemptId }, order: { at: 'ASC' } });
  const transitions = await em.getRepository(AttemptTransitionEntity).find({ where: { attemptId }, order: { at: 'ASC' } });
  return {
    attempt: {
      id: attempt.id,
      chargeId: attempt.chargeId,
      idempotencyKey: attempt.idempotencyKey,
      provider: attempt.provider,
      status: attempt.status,
      providerChargeId: attempt.providerRef,
      httpAttempts: attempt.httpAttempts,
      resolutionTries: attempt.resolutionTries,
      createdAt: attempt.createdAt,
      unknownSince: attempt.unknownSince,
      resolvedBy: attempt.resolvedBy,
      lastError: attempt.lastError,
    },
    payload: attempt.payload,
    providerCalls: calls.map((c) => ({ at: c.at, kind: c.kind, outcome: c.outcome, httpStatus: c.httpStatus, durationMs: c.durationMs, detail: c.detail })),
    transitions: transitions.map((t) => ({ at: t.at, from: t.fromStatus, to: t.toStatus, cause: t.cause, actor: t.actor, detail: t.detail })),
  };
}
