import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ProviderCallEntity } from '@app/database';
import { providerCallSeconds, providerCallsTotal } from '@app/observability';

export interface ProviderCallRecord {
  attemptId: string;
  provider: string;
  /** `cancel`: a charge that waited for its payer past its due date, cancelled before it is failed. `recheck`: the query of a failed-as-not-found attempt before a new attempt of its charge opens. */
  kind: 'create' | 'lookup' | 'recheck' | 'cancel' | 'proposal_check';
  outcome: string;
  httpStatus: number | null;
  durationMs: number;
  detail: Record<string, unknown> | null;
}

/** Keeps what every provider call proved, as evidence for reviewers and for metrics. */
@Injectable()
export class ProviderCallRecorder {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(call: ProviderCallRecord, manager?: EntityManager): Promise<void> {
    providerCallsTotal.inc({ provider: call.provider, kind: call.kind, outcome: call.outcome });
    providerCallSeconds.observe({ provider: call.provider, kind: call.kind }, call.durationMs / 1000);
    await (manager ?? this.db.manager).getRepository(ProviderCallEntity).insert({
      attemptId: call.attemptId,
      kind: call.kind,
      outcome: call.outcome,
      httpStatus: call.httpStatus,
      durationMs: Math.round(call.durationMs),
      detail: call.detail,
    });
  }
}
