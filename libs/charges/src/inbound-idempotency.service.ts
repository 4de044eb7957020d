import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyRecordEntity } from '@app/database';
import { IdempotencyKeyInFlightError, IdempotencyKeyReusedError } from './charges.errors.js';

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
@Injectable()
export class InboundIdempotencyService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async run(scope: string, key: string, body: unknown, handler: () => Promise<{ status: number; body: unknown }>): Promise<StoredResponse> {
    const requestHash = hashRequest(body);
    const inserted = await this.db.query<unknown[]>(
      `INSERT INTO idempotency_records (scope, key, request_hash, state) VALUES ($1, $2, $3, 'in_flight')
       ON CONFLICT DO NOTHING RETURNING key`,
      [scope, key, requestHash],
    );
    if (inserted.length === 0) return this.replay(scope, key, requestHash);
    let response: { status: number; body: unknown };
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
    return { ...response, replayed: false };
  }

  private async replay(scope: string, key: string, requestHash: string): Promise<StoredResponse> {
    const record = await this.db.getRepository(IdempotencyRecordEntity).findOneByOrFail({ scope, key });
    if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
    if (record.state === 'in_flight') throw new IdempotencyKeyInFlightError();
    return { status: record.responseStatus ?? 200, body: record.responseBody, replayed: true };
  }
}

/** Key order must not matter: `{a,b}` and `{b,a}` are the same request. */
export function hashRequest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // An absent field and an undefined one are the same request (validated DTOs carry undefined optionals).
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    const entries = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
