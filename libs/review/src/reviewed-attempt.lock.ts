import type { EntityManager } from 'typeorm';
import { msInterval } from '@app/database';

export interface ReviewedAttempt {
  status: string;
  resolved_by: string | null;
  provider_charge_id: string | null;
  /** Whether the provider query made at `queriedAt` came after the attempt's grace period ended. */
  queried_after_grace: boolean;
}

/**
 * Locks the attempt a decision is about, in the decision's transaction, and reads what the decision is checked
 * against under that lock: whatever settled the attempt meanwhile (a webhook, the resolver) is seen here.
 */
export async function lockReviewedAttempt(em: EntityManager, attemptId: string, graceMs: number, queriedAt: string | null = null): Promise<ReviewedAttempt> {
  const [row] = await em.query<ReviewedAttempt[]>(
    `SELECT status, resolved_by, provider_ref AS provider_charge_id,
            coalesce($2::timestamptz >= coalesce(last_send_ended_at, last_sent_at, created_at) + ${msInterval('$3')}, false) AS queried_after_grace
       FROM attempts WHERE id = $1 FOR UPDATE`,
    [attemptId, queriedAt, graceMs],
  );
  return row;
}
