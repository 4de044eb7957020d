import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionWriter } from '@app/attempts';
import { AttemptJobs } from '@app/queues';
import { msInterval } from '@app/database';

export interface SweepReport {
  leasesExpired: number;
  resolutionsScheduled: number;
  sendsResumed: number;
}

/** A pending attempt untouched this long with no claim is an orphan of a process that died before sending. */
const ORPHAN_GRACE_MS = 2000;
const BATCH = 1000;

/**
 * Puts every open attempt back in someone's hands. The database is the source of truth; Redis only holds
 * reminders, so after a crash or an empty Redis one sweep re-creates whatever reminder went missing
 * (a no-op when the reminder is still live; a job Redis kept in no list is replaced).
 */
@Injectable()
export class OpenAttemptSweeper {
  private readonly logger = new Logger(OpenAttemptSweeper.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transitions: AttemptTransitionWriter,
    private readonly jobs: AttemptJobs,
  ) {}

  async sweep(): Promise<SweepReport> {
    const report = {
      leasesExpired: await this.expireLeases(),
      resolutionsScheduled: await this.rescheduleResolutions(),
      sendsResumed: await this.resumeOrphanedSends(),
    };
    if (report.leasesExpired + report.sendsResumed > 0) this.logger.warn(report, 'sweep recovered open attempts');
    return report;
  }

  /** The sender died mid-call: the request may have gone out, so the outcome is unknown. */
  private async expireLeases(): Promise<number> {
    const expired = await this.db.query<Array<{ id: string; http_attempts: number }>>(
      `SELECT id, http_attempts FROM attempts
        WHERE status = 'pending' AND lease_expires_at < now() ORDER BY lease_expires_at LIMIT ${BATCH}`,
    );
    let moved = 0;
    for (const row of expired) {
      const ok = await this.transitions.apply({
        attemptId: row.id,
        from: 'pending',
        to: 'unknown',
        cause: 'sweeper',
        actor: 'sweeper',
        expectHttpAttempts: row.http_attempts,
        expectLeaseExpired: true,
        detail: { reason: 'lease_expired' },
      });
      if (ok) moved++;
    }
    return moved;
  }

  private async rescheduleResolutions(): Promise<number> {
    const unknown = await this.db.query<Array<{ id: string; provider: string; resolution_tries: number }>>(
      `SELECT a.id, a.provider, a.resolution_tries FROM attempts a
        WHERE a.status = 'unknown'
          -- A charge awaiting its payer is checked at its deadline, not every sweep (a lost reminder is recreated then).
          AND (a.awaiting_payment_until IS NULL OR a.awaiting_payment_until <= now())
          AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed')
        ORDER BY a.updated_at LIMIT ${BATCH}`,
    );
    for (const row of unknown) await this.jobs.recreateResolution(row.id, row.provider, row.resolution_tries);
    return unknown.length;
  }

  private async resumeOrphanedSends(): Promise<number> {
    const orphans = await this.db.query<Array<{ id: string; http_attempts: number }>>(
      `SELECT id, http_attempts FROM attempts
        WHERE status = 'pending' AND lease_expires_at IS NULL
          AND (next_send_at IS NULL OR next_send_at <= now())
          AND updated_at < now() - ${msInterval('$1')}
        LIMIT ${BATCH}`,
      [ORPHAN_GRACE_MS],
    );
    for (const row of orphans) await this.jobs.recreateSend(row.id, row.http_attempts);
    return orphans.length;
  }
}
