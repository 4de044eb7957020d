import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyRecordEntity, msInterval } from '@app/database';
import { IdempotencyKeyInFlightError, IdempotencyKeyReusedError } from './charges.errors.js';
import { canonicalJson } from './rules/canonical-json.js';

export interface HandledResponse {
  status: number;
  body: unknown;
  replayed?: boolean;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  replayed: boolean;
}

/**
 * `Idempotency-Key` on our own API (IETF httpapi-idempotency-key-header): the first request with a key
 * is recorded as in flight before it runs; a repeat with the same body replays its response, a repeat
 * with another body is refused (422), and a repeat while the first still runs gets 409.
 */
/** Longer than any request may run (the HTTP server and the provider timeouts end it well before). */
const ABANDONED_AFTER_MS = 120_000;

@Injectable()
export class InboundIdempotencyService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * `handler` may answer `replayed: true` itself: what it answers was made by an earlier request (a refund or payout
   * named by this key, found after a takeover or a lost record), so the client is told, as on a stored replay.
   */
  async run(scope: string, key: string, body: unknown, handler: () => Promise<HandledResponse>): Promise<StoredResponse> {
    const requestHash = hashRequest(body);
    // A few rounds only because the first holder may let go of the key between our insert and our read.
    for (let round = 0; round < 3; round++) {
      if (await this.acquire(scope, key, requestHash)) return this.execute(scope, key, handler);
      const record = await this.db.getRepository(IdempotencyRecordEntity).findOneBy({ scope, key });
      if (!record) continue;
      if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      if (record.state === 'completed') return { status: record.responseStatus ?? 200, body: record.responseBody, replayed: true };
      if (await this.takeOverAbandoned(scope, key)) return this.execute(scope, key, handler);
      throw new IdempotencyKeyInFlightError();
    }
    throw new IdempotencyKeyInFlightError();
  }

  private async acquire(scope: string, key: string, requestHash: string): Promise<boolean> {
    const inserted = await this.db.query<unknown[]>(
      `INSERT INTO idempotency_records (scope, key, request_hash, state) VALUES ($1, $2, $3, 'in_flight')
       ON CONFLICT DO NOTHING RETURNING key`,
      [scope, key, requestHash],
    );
    return inserted.length === 1;
  }

  /**
   * A request in flight for longer than any request lives belonged to a process that died. One caller may
   * take it over (conditional update); charge creation is itself guarded by the unique order id.
   */
  private async takeOverAbandoned(scope: string, key: string): Promise<boolean> {
    const [, affected] = await this.db.query<[unknown[], number]>(
      `UPDATE idempotency_records SET created_at = now()
        WHERE scope = $1 AND key = $2 AND state = 'in_flight' AND created_at < now() - ${msInterval('$3')}`,
      [scope, key, ABANDONED_AFTER_MS],
    );
    return affected === 1;
  }

  private async execute(scope: string, key: string, handler: () => Promise<HandledResponse>): Promise<StoredResponse> {
    let response: HandledResponse;
    try {
      response = await handler();
    } catch (error) {
      // Nothing was produced to replay: forget the key so the client may retry it.
      await this.db.getRepository(IdempotencyRecordEntity).delete({ scope, key, state: 'in_flight' });
      throw error;
    }
    await this.db.getRepository(IdempotencyRecordEntity).update(
      { scope, key },
      { state: 'completed', responseStatus: response.status, responseBody: response.body as object },
    );
    return { status: response.status, body: response.body, replayed: response.replayed ?? false };
  }
}

/** Key order must not matter: `{a,b}` and `{b,a}` are the same request. */
export function hashRequest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
