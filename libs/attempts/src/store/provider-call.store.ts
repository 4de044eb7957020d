import type { EntityManager } from 'typeorm';
import { ProviderCallEntity } from '@app/database';

export interface ProviderCallRecord {
  attemptId: string;
  provider: string;
  /** `cancel`: a charge that waited for its payer past its due date, cancelled before it is failed. `recheck`: the query of a failed-as-not-found attempt before a new attempt of its charge opens. `first_send_check`: the query of a charge attempt's reference before its first request to a provider without idempotency keys. */
  kind: 'create' | 'lookup' | 'recheck' | 'cancel' | 'proposal_check' | 'first_send_check';
  outcome: string;
  httpStatus: number | null;
  durationMs: number;
  detail: Record<string, unknown> | null;
}

/**
 * Evidence: what one provider call proved, appended and never updated or deleted, in the transaction of whatever
 * it justifies (the foreign key to its attempt is checked at insert: write the attempt first, as every writer does).
 */
export async function insertProviderCall(em: EntityManager, call: ProviderCallRecord): Promise<void> {
  await em.getRepository(ProviderCallEntity).insert({
    attemptId: call.attemptId,
    kind: call.kind,
    outcome: call.outcome,
    httpStatus: call.httpStatus,
    durationMs: Math.round(call.durationMs),
    detail: call.detail,
  });
}
