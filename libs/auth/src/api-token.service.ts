import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError } from '@app/common';
import { ApiTokenEntity, isUniqueViolation, type ApiRole } from '@app/database';
import type { Actor } from './actor.js';
import { generateToken, hashToken } from './token-hash.js';

export class TokenNameTakenError extends DomainError {
  readonly code = 'token_name_taken';
  readonly kind = 'conflict';
  constructor(name: string) {
    super(`a token named "${name}" already exists; names are the actors in audit trails, so they are unique`);
  }
}

@Injectable()
export class ApiTokenService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async authenticate(token: string): Promise<Actor | null> {
    const row = await this.db.getRepository(ApiTokenEntity).findOne({ where: { tokenHash: hashToken(token) } });
    if (!row || row.revokedAt) return null;
    return { name: row.name, role: row.role };
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
