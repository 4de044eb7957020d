import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderFactApplier } from '@app/attempts';
import { closeOpenReviewItem } from '@app/review/items';
import type { SettleCandidate } from './statement.matching.js';

/**
 * A statement line carrying a still-unknown attempt's reference is the provider's own record that the money
 * moved: the attempt becomes `succeeded` (cause `reconciliation`), its open review item closes with the
 * line as evidence, and the run's `settled` count moves, all in one transaction. The transition is
 * conditional, so a webhook or resolver that got there first simply wins; a contradiction goes to review.
 */
@Injectable()
export class UnknownAttemptSettler {
  private readonly logger = new Logger(UnknownAttemptSettler.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly facts: ProviderFactApplier,
  ) {}

  async settle(runId: string, provider: string, candidate: SettleCandidate): Promise<boolean> {
    const evidence = { runId, provider, ...candidate };
    const settled = await this.db.transaction(async (em) => {
      // Through the one place a provider fact meets our record: a line for another amount, or one that would
      // be the charge's second success, goes to a person instead of moving the attempt.
      const decision = await this.facts.apply(
        em,
        candidate.attemptId,
        // A line that proves only a creation teaches the provider's id (a pending fact); the resolver learns the outcome.
        { outcome: candidate.provesOnly === 'created' ? 'pending' : 'succeeded', providerChargeId: candidate.providerChargeId, amountCents: candidate.amountCents, currency: candidate.currency },
        { cause: 'reconciliation', actor: `reconciliation:${runId}`, evidence },
      );
      const moved = decision.action === 'transition';
      if (!moved) return false;
      await em.query(`UPDATE reconciliation_runs SET settled = settled + 1 WHERE id = $1`, [runId]);
      await closeOpenReviewItem(em, candidate.attemptId, candidate.providerChargeId, evidence);
      return true;
    });
    if (settled) this.logger.log({ attemptId: candidate.attemptId, provider, providerChargeId: candidate.providerChargeId, runId }, 'unknown attempt settled by reconciliation');
    return settled;
  }
}
