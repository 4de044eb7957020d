import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { msInterval } from '@app/database';

/**
 * Forgets completed inbound Idempotency-Keys once clients can no longer be retrying them
 * (INBOUND_IDEMPOTENCY_TTL_MS, a day by default, as Stripe does). Keys in flight are never touched here.
 */
@Injectable()
export class IdempotencyRecordJanitor {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async purge(): Promise<number> {
    const [, deleted] = await this.db.query<[unknown[], number]>(
      `DELETE FROM idempotency_records
        WHERE state = 'completed' AND created_at < now() - ${msInterval('$1')}`,
      [this.config.INBOUND_IDEMPOTENCY_TTL_MS],
    );
    return deleted;
  }
}
