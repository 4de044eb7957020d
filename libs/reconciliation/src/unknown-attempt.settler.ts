import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionWriter } from '@app/attempts';
import { closeOpenReviewItem } from './review-item.closer.js';
import type { SettleCandidate } from './statement-matcher.js';

/**
 * A statement line carrying a still-unknown attempt's reference is the provider's own record that the money
 * moved: the attempt becomes `succeeded` (cause `reconciliation`), its open review item closes with the
 * line as evidence, and the run's `settled` count moves, all in one transaction. The transition is
 * conditional, so a webhook or resolver that got there first simply wins.
 */
@Injectable()
export class UnknownAttemptSettler {
  private readonly logger = new Logger(UnknownAttemptSettler.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transitions: AttemptTransitionWriter,
  ) {}

  async settle(runId: string, provider: string, candidate: SettleCandidate): Promise<boolean> {
    const evidence = { runId, provider, ...candidate };
    const settled = await this.db.transaction(async (em) => {
      const moved = await this.transitions.apply(
        {
          attemptId: candidate.attemptId,
          from: 'unknown',
          to: 'succeeded',
          cause: 'reconciliation',
          actor: `reconciliation:${runId}`,
          set: { providerChargeId: candidate.providerChargeId },
          detail: evidence,
        },
        em,
      );
      if (!moved) return false;
      await em.query(`UPDATE reconciliation_runs SET settled = settled + 1 WHERE id = $1`, [runId]);
      await closeOpenReviewItem(em, candidate.attemptId, candidate.providerChargeId, evidence);
      return true;
    });
    if (settled) this.logger.log({ attemptId: candidate.attemptId, provider, providerChargeId: candidate.providerChargeId, runId }, 'unknown attempt settled by reconciliation');
    return settled;
  }
}
