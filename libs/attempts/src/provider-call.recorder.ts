import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { providerCallSeconds, providerCallsTotal } from '@app/observability';
import { insertProviderCall, type ProviderCallRecord } from './store/provider-call.store.js';

export type { ProviderCallRecord } from './store/provider-call.store.js';

/** Keeps what every provider call proved, as evidence for reviewers and for metrics. */
@Injectable()
export class ProviderCallRecorder {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(call: ProviderCallRecord, manager?: EntityManager): Promise<void> {
    providerCallsTotal.inc({ provider: call.provider, kind: call.kind, outcome: call.outcome });
    providerCallSeconds.observe({ provider: call.provider, kind: call.kind }, call.durationMs / 1000);
    await insertProviderCall(manager ?? this.db.manager, call);
  }

  /**
   * A query's answer (a lookup, a cancel): `error` carries its own HTTP status (null when none came back); any
   * other kind is what a 200 said.
   */
  recordAnswer(
    attempt: { id: string; provider: string },
    kind: 'lookup' | 'cancel',
    answer: { kind: string; durationMs: number; httpStatus?: number | null },
    detail: Record<string, unknown>,
  ): Promise<void> {
    const httpStatus = answer.kind === 'error' ? (answer.httpStatus ?? null) : 200;
    return this.record({ attemptId: attempt.id, provider: attempt.provider, kind, outcome: answer.kind, httpStatus, durationMs: answer.durationMs, detail });
  }
}
