import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** `waiting`: the provider's statement did not cover the day yet; not a failure, the next tick asks again. */
export type ReconciliationRunStatus = 'running' | 'succeeded' | 'failed' | 'waiting';
export type ReconciliationTrigger = 'scheduled' | 'manual';
export type StatementSourceColumn = 'api' | 'report';

/**
 * One execution of a provider's day. Whoever holds the lease runs it; `executions` counts claims and fences
 * every write, so a run taken over after its lease expired finishes exactly once.
 */
@Entity('reconciliation_runs')
// A failed or waiting scheduled run gives its day back to the next tick (catch-up); one running or succeeded scheduled run a day.
@Index('uq_reconciliation_runs_scheduled', ['provider', 'day', 'trigger'], { unique: true, where: `trigger = 'scheduled' AND status IN ('running','succeeded')` })
@Index('uq_reconciliation_runs_running', ['provider', 'day'], { unique: true, where: `status = 'running'` })
@Index('ix_reconciliation_runs_provider_day', ['provider', 'day'])
@Index('ix_reconciliation_runs_lease', ['leaseExpiresAt'], { where: `status = 'running'` })
@Check('reconciliation_runs_trigger_check', `trigger IN ('scheduled','manual')`)
@Check('reconciliation_runs_source_check', `source IN ('api','report')`)
@Check('reconciliation_runs_status_check', `status IN ('running','succeeded','failed','waiting')`)
export class ReconciliationRunEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') provider: string;
  /** 'YYYY-MM-DD', the day in RECONCILIATION_TZ. */
  @Column('date') day: string;
  @Column('text') trigger: ReconciliationTrigger;
  @Column('text') source: StatementSourceColumn;
  @Column('text') status: ReconciliationRunStatus;
  @Column('text', { name: 'requested_by' }) requestedBy: string;
  @Column('text', { name: 'lease_owner', nullable: true }) leaseOwner: string | null;
  @Column('timestamptz', { name: 'lease_expires_at', nullable: true }) leaseExpiresAt: Date | null;
  @Column('int', { default: 0 }) executions: number;
  @Column('int', { name: 'lines_read', default: 0 }) linesRead: number;
  @Column('int', { default: 0 }) matched: number;
  @Column('int', { default: 0 }) settled: number;
  @Column('jsonb', { name: 'divergence_counts', default: () => `'{}'` }) divergenceCounts: Record<string, number>;
  @Column('text', { nullable: true }) error: string | null;
  @Column('timestamptz', { name: 'started_at', default: () => 'now()' }) startedAt: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt: Date | null;
}
