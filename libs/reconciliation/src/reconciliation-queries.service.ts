import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { ReconciliationDivergenceEntity, ReconciliationRunEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { dayWindow, previousDay } from './rules/reconciliation-day.js';
import { readableProviders } from './statement.sources.js';
import { ReconciliationClock } from './reconciliation.clock.js';
import { acknowledgeDivergences } from './divergence-acknowledgement.js';
import { unreconciledDays } from './unreconciled-days.query.js';
import { DivergenceNotFoundError, InvalidCursorError, ReconciliationRunNotFoundError } from './reconciliation.errors.js';
import { divergenceView, runView, type DivergenceView, type OpenDaysView, type RunView } from './reconciliation.views.js';

/** Milliseconds, the precision a cursor carries (PostgreSQL keeps microseconds, a JS Date does not). */
const PAGE_ORDER = `date_trunc('milliseconds', d.created_at)`;

export interface DivergenceFilter {
  runId?: string;
  provider?: string;
  kind?: string;
  status?: string;
  cursor?: string;
  limit: number;
}

/** What finance reads: runs, divergences (keyset-paged, oldest first), and acknowledging one. */
@Injectable()
export class ReconciliationQueries {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly config: AppConfig,
    private readonly clock: ReconciliationClock,
  ) {}

  /**
   * Per provider a tick reconciles: the days of the catch-up window (ending yesterday) still without a succeeded
   * run, and the instant through which every day of the window is reconciled (the start of the first open day),
   * which a run of some later day cannot move past a gap.
   */
  async openDays(): Promise<OpenDaysView[]> {
    const tz = this.config.RECONCILIATION_TZ;
    const lastDay = previousDay(this.clock.now(), tz);
    return Promise.all(
      readableProviders(this.gateways).map(async (provider) => {
        const open = await unreconciledDays(this.db.manager, provider, lastDay, this.config.RECONCILIATION_CATCHUP_DAYS, tz);
        const first = open.at(0);
        return {
          provider,
          reconciledThrough: first ? dayWindow(first.day, tz).start : dayWindow(lastDay, tz).end,
          days: open.map((d) => ({ day: d.day, status: d.lastStatus ?? 'not_tried', error: d.lastError, failedRuns: d.failedRuns })),
        };
      }),
    );
  }

  async run(id: string): Promise<RunView> {
    const run = await this.db.getRepository(ReconciliationRunEntity).findOneBy({ id });
    if (!run) throw new ReconciliationRunNotFoundError(id);
    return runView(run);
  }

  /** Newest first; `from`/`to` bound the day (inclusive). */
  async runs(filter: { provider?: string; from?: string; to?: string }): Promise<RunView[]> {
    const query = this.db.getRepository(ReconciliationRunEntity).createQueryBuilder('r').orderBy('r.started_at', 'DESC').addOrderBy('r.id', 'DESC').limit(200);
    if (filter.provider) query.andWhere('r.provider = :provider', { provider: filter.provider });
    if (filter.from) query.andWhere('r.day >= :from', { from: filter.from });
    if (filter.to) query.andWhere('r.day <= :to', { to: filter.to });
    return (await query.getMany()).map(runView);
  }

  async divergences(filter: DivergenceFilter): Promise<{ items: DivergenceView[]; nextCursor: string | null }> {
    const query = this.db.getRepository(ReconciliationDivergenceEntity).createQueryBuilder('d').orderBy(PAGE_ORDER, 'ASC').addOrderBy('d.id', 'ASC').limit(filter.limit + 1);
    if (filter.runId) {
      query.innerJoin('reconciliation_run_divergences', 'l', 'l.divergence_id = d.id AND l.run_id = :runId', { runId: filter.runId });
    }
    if (filter.provider) query.andWhere('d.provider = :provider', { provider: filter.provider });
    if (filter.kind) query.andWhere('d.kind = :kind', { kind: filter.kind });
    if (filter.status) query.andWhere('d.status = :status', { status: filter.status });
    if (filter.cursor) {
      const after = decodeCursor(filter.cursor);
      query.andWhere(`(${PAGE_ORDER}, d.id) > (:at::timestamptz, :id::uuid)`, after);
    }
    const rows = await query.getMany();
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    return { items: page.map(divergenceView), nextCursor: rows.length > filter.limit && last ? encodeCursor(last) : null };
  }

  /** Acknowledging keeps the divergence (re-runs still see it) but records that a person looked. */
  async acknowledge(id: string, note: string, actor: string): Promise<DivergenceView> {
    // Acknowledging twice is harmless: the first note stands.
    await this.db.query(acknowledgeDivergences('d.id = $1', '$2', '$3'), [id, note, actor]);
    const divergence = await this.db.getRepository(ReconciliationDivergenceEntity).findOneBy({ id });
    if (!divergence) throw new DivergenceNotFoundError(id);
    return divergenceView(divergence);
  }
}

function encodeCursor(d: ReconciliationDivergenceEntity): string {
  return Buffer.from(JSON.stringify({ at: d.createdAt.toISOString(), id: d.id })).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof parsed.at === 'string' && typeof parsed.id === 'string' && !Number.isNaN(Date.parse(parsed.at))) return { at: parsed.at, id: parsed.id };
  } catch {
    // falls through
  }
  throw new InvalidCursorError();
}
