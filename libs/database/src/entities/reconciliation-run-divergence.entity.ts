import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ReconciliationDivergenceEntity } from './reconciliation-divergence.entity.js';
import { ReconciliationRunEntity } from './reconciliation-run.entity.js';

/** Which runs saw which divergence: `GET /reconciliation/divergences?runId=` reads it. */
@Entity('reconciliation_run_divergences')
export class ReconciliationRunDivergenceEntity {
  @PrimaryColumn('uuid', { name: 'run_id' }) runId: string;
  @PrimaryColumn('uuid', { name: 'divergence_id' }) divergenceId: string;
  @ManyToOne(() => ReconciliationRunEntity, { nullable: false })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'reconciliation_run_divergences_run_id_fkey' })
  run?: Relation<ReconciliationRunEntity>;
  @ManyToOne(() => ReconciliationDivergenceEntity, { nullable: false })
  @JoinColumn({ name: 'divergence_id', foreignKeyConstraintName: 'reconciliation_run_divergences_divergence_id_fkey' })
  divergence?: Relation<ReconciliationDivergenceEntity>;
}
