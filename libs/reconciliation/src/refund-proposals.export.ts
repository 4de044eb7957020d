import { Injectable } from '@nestjs/common';
import { ReplicaReader } from '@app/database/replica';
import type { RefundProposalState } from '@app/database';
import type { RefundProposalView } from './reconciliation.views.js';

/**
 * Replica lag finance's CSV accepts: a spreadsheet of proposals that wait hours for an admin; a minute behind changes
 * nothing. Approving one reads and locks the proposal on the primary (RefundProposalsService), never from this.
 */
const EXPORT_STALENESS_TOLERATED_MS = 60_000;

/** Refund proposals for the CSV export, oldest first, read on the replica. */
@Injectable()
export class RefundProposalsExport {
  constructor(private readonly replica: ReplicaReader) {}

  list(state: RefundProposalState | undefined, limit: number): Promise<RefundProposalView[]> {
    return this.replica.query<RefundProposalView>(
      EXPORT_STALENESS_TOLERATED_MS,
      `SELECT id, divergence_id AS "divergenceId", review_item_id AS "reviewItemId", provider, provider_charge_id AS "providerChargeId",
              charge_id AS "chargeId", amount_cents::float8 AS "amountCents", currency, reason, state, approved_by AS "approvedBy",
              decided_by AS "decidedBy", decided_at AS "decidedAt", decision_note AS "decisionNote", refund_id AS "refundId", created_at AS "createdAt"
         FROM refund_proposals WHERE ($1::text IS NULL OR state = $1) ORDER BY created_at, id LIMIT $2`,
      [state ?? null, limit],
    );
  }
}
