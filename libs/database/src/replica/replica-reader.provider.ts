import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg, { type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { PostgresReplicaReader, ReplicaReader, type ReadQuery, type ReadsServed } from './replica-reader.js';

/** Seen in the standby's pg_stat_activity: which sessions are the screens' reads. */
export const REPLICA_APPLICATION_NAME = 'charge-once-replica-reader';

/**
 * The replica's own small pool (screens and exports only, a few at a time), beside TypeORM's primary pool, which the
 * fallback borrows. `pg` connects lazily: a replica down at boot costs nothing but fallbacks.
 */
@Injectable()
export class ConfiguredReplicaReader extends ReplicaReader implements OnModuleDestroy {
  private readonly logger = new Logger('ReplicaReader');
  private readonly replica: Pool | null;
  private readonly reader: PostgresReplicaReader;

  constructor(@InjectDataSource() primary: DataSource, config: AppConfig) {
    super();
    const url = config.DATABASE_REPLICA_URL;
    this.replica = url ? new pg.Pool({ connectionString: url, max: 5, connectionTimeoutMillis: 2000, application_name: REPLICA_APPLICATION_NAME }) : null;
    // An idle client the standby dropped (restart, promotion) must not crash the process; the next read reconnects.
    this.replica?.on('error', () => undefined);
    const primaryPool = (primary.driver as unknown as { master: Pool }).master;
    this.reader = new PostgresReplicaReader(primaryPool, this.replica, (reason) => this.logger.debug({ reason }, 'read served by the primary'));
  }

  read<T>(toleratedMs: number, work: (query: ReadQuery) => Promise<T>): Promise<T> {
    return this.reader.read(toleratedMs, work);
  }

  readsServed(): ReadsServed[] {
    return this.reader.readsServed();
  }

  async onModuleDestroy(): Promise<void> {
    await this.replica?.end();
  }
}
