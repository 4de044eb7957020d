import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { recordFirstAttempt } from './store/provider-first-attempt.store.js';

/**
 * Writes `provider_first_attempts` as attempts open, at most once per provider and process: once this process has
 * committed the row it knows it exists (rows are never deleted), so the charge hot path pays a set lookup, not a
 * round trip. The insert is ON CONFLICT DO NOTHING, so processes racing to be first are all fine.
 */
@Injectable()
export class ProviderFirstAttempt {
  private readonly recorded = new Set<string>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Outside any transaction, just before an attempt opens: the row is committed by the time the attempt is. */
  async opening(provider: string): Promise<void> {
    if (this.recorded.has(provider)) return;
    await recordFirstAttempt(this.db, provider);
    this.recorded.add(provider);
  }

  /** In the opener's transaction, committed with the attempt; not remembered, as that commit is the caller's to make. */
  async openingIn(em: EntityManager, provider: string): Promise<void> {
    if (this.recorded.has(provider)) return;
    await recordFirstAttempt(em, provider);
  }
}
