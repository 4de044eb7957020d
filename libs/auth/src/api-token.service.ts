import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError } from '@app/common';
import { ApiTokenEntity, isUniqueViolation, preparedQuery, type ApiRole } from '@app/database';
import type { Actor } from './actor.js';
import { generateToken, hashToken } from './token.hash.js';

export class TokenNameTakenError extends DomainError {
  readonly code = 'token_name_taken';
  readonly kind = 'conflict';
  constructor(name: string) {
    super(`a token named "${name}" already exists; names are the actors in audit trails, so they are unique`);
  }
}

/**
 * How long a token that authenticated is believed without asking the database again: every request would
 * otherwise pay a round trip for it. A revocation therefore takes effect within this long in each api process
 * (documented in the README). Unknown and revoked tokens are never cached, so a new token works at once.
 */
export const TOKEN_CACHE_TTL_MS = 10_000;
/** Bounds the cache: a flood of distinct valid tokens cannot grow it without limit. */
const TOKEN_CACHE_MAX = 1_000;

@Injectable()
export class ApiTokenService {
  private readonly cache = new Map<string, { actor: Actor; until: number }>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async authenticate(token: string): Promise<Actor | null> {
    const tokenHash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > now) return cached.actor;
    const [row] = await preparedQuery<{ name: string; role: ApiRole }>(
      this.db,
      'auth_token_by_hash',
      `SELECT name, role FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
      [tokenHash],
    );
    if (!row) {
      this.cache.delete(tokenHash);
      return null;
    }
    const actor: Actor = { name: row.name, role: row.role };
    if (this.cache.size >= TOKEN_CACHE_MAX) this.cache.clear();
    this.cache.set(tokenHash, { actor, until: now + TOKEN_CACHE_TTL_MS });
    return actor;
  }

  /** Creates a named token and returns it; only its hash is kept, so this is the one time it is seen. */
  async create(name: string, role: ApiRole): Promise<string> {
    const token = generateToken();
    try {
      await this.db.getRepository(ApiTokenEntity).insert({ name, role, tokenHash: hashToken(token) });
    } catch (error) {
      if (isUniqueViolation(error, 'UQ_api_tokens_name')) throw new TokenNameTakenError(name);
      throw error;
    }
    return token;
  }

  /** Upserts `role:token` pairs from API_TOKENS; idempotent across restarts and concurrent boots. */
  async bootstrap(pairs: string | undefined): Promise<void> {
    for (const pair of (pairs ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
      const [role, token] = pair.split(':') as [ApiRole, string];
      const tokenHash = hashToken(token);
      await this.db.query(
        `INSERT INTO api_tokens (name, role, token_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [`${role}-${tokenHash.slice(0, 8)}`, role, tokenHash],
      );
    }
  }
}
