import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError } from '@app/common';
import { isUniqueViolation, preparedQuery, type ApiRole } from '@app/database';
import type { Actor } from './actor.js';
import { envTokenName, parseApiTokensSetting } from './api-tokens.setting.js';
import { generateToken, hashToken } from './token.hash.js';

export class TokenNameTakenError extends DomainError {
  readonly code = 'token_name_taken';
  readonly kind = 'conflict';
  constructor(name: string) {
    super(`a token named "${name}" already exists; token names are unique`);
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

/** Who holds a token: the merchant (tenant) of a merchant token, the person of a reviewer's or admin's. */
export interface TokenHolder {
  /** Merchant name for a merchant token, person for a reviewer or admin; defaults to the token's name. */
  holder?: string;
}

export interface TokenListing {
  name: string;
  role: ApiRole;
  holder: string;
  source: 'env' | 'cli';
  createdAt: Date;
  revokedAt: Date | null;
}

interface TokenRow {
  name: string;
  role: ApiRole;
  merchant_id: string | null;
  person: string | null;
  source: 'env' | 'cli';
}

@Injectable()
export class ApiTokenService {
  private readonly cache = new Map<string, { actor: Actor; until: number }>();
  /** The hashes of this process's API_TOKENS: an env token outside them is refused here (never revoked for others). */
  private envHashes = new Set<string>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The actor a token was recently authenticated as, without asking anything (null: ask `authenticate`). */
  cached(token: string): Actor | null {
    const cached = this.cache.get(hashToken(token));
    return cached && cached.until > Date.now() ? cached.actor : null;
  }

  async authenticate(token: string): Promise<Actor | null> {
    const tokenHash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > now) return cached.actor;
    const [row] = await preparedQuery<TokenRow>(
      this.db,
      'auth_token_by_hash_v3',
      `SELECT name, role, merchant_id, person, source FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
      [tokenHash],
    );
    // A token that came from API_TOKENS works only while this process's setting still names it.
    if (!row || (row.source === 'env' && !this.envHashes.has(tokenHash))) {
      this.cache.delete(tokenHash);
      return null;
    }
    const actor: Actor = { name: row.person ?? row.name, role: row.role, merchantId: row.merchant_id, tokenName: row.name };
    if (this.cache.size >= TOKEN_CACHE_MAX) this.cache.clear();
    this.cache.set(tokenHash, { actor, until: now + TOKEN_CACHE_TTL_MS });
    return actor;
  }

  /**
   * Creates a named token and returns it; only its hash is kept, so this is the one time it is seen. A merchant
   * token joins (or founds) the merchant named by `holder`; a reviewer's or admin's names its person.
   */
  async create(name: string, role: ApiRole, options: TokenHolder = {}): Promise<string> {
    const token = generateToken();
    try {
      await this.db.transaction((em) => this.insert(em, { name, role, holder: options.holder ?? name, tokenHash: hashToken(token), source: 'cli' }));
    } catch (error) {
      if (isUniqueViolation(error, 'UQ_api_tokens_name')) throw new TokenNameTakenError(name);
      throw error;
    }
    return token;
  }

  /** Revokes a token by name; answers whether one was live. Each api process believes its cache for TOKEN_CACHE_TTL_MS at most. */
  async revoke(name: string): Promise<boolean> {
    const [, affected] = await this.db.query<[unknown[], number]>(`UPDATE api_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL`, [name]);
    // This process believes nothing it cached any more; the others within TOKEN_CACHE_TTL_MS.
    this.cache.clear();
    return affected === 1;
  }

  async list(): Promise<TokenListing[]> {
    const rows = await this.db.query<Array<{ name: string; role: ApiRole; holder: string; source: 'env' | 'cli'; created_at: Date; revoked_at: Date | null }>>(
      `SELECT t.name, t.role, COALESCE(m.name, t.person) AS holder, t.source, t.created_at, t.revoked_at
         FROM api_tokens t LEFT JOIN merchants m ON m.id = t.merchant_id ORDER BY t.created_at, t.name`,
    );
    return rows.map((r) => ({ name: r.name, role: r.role, holder: r.holder, source: r.source, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  /**
   * Makes API_TOKENS (`role:token` or `role:holder:token`) this process's env tokens exactly: each is upserted with
   * the role and holder the setting gives it (idempotent across restarts and concurrent boots), and an env token the
   * setting no longer names is refused by this process from now on. Nothing is revoked in the database, so a rolling
   * deploy or a rollback never locks another process's clients out. Tokens made with token:create are untouched.
   */
  async bootstrap(setting: string | undefined): Promise<void> {
    const entries = parseApiTokensSetting(setting);
    await this.db.transaction(async (em) => {
      // One boot at a time, so two apis booting together never race on one merchant or token row.
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('charge-once:api-tokens-bootstrap'))`);
      for (const entry of entries) {
        const tokenHash = hashToken(entry.token);
        const name = envTokenName(entry);
        const [known] = await em.query<Array<{ id: string; name: string }>>(`SELECT id, name FROM api_tokens WHERE token_hash = $1`, [tokenHash]);
        const holder = entry.holder ?? known?.name ?? name;
        if (!known) await this.insert(em, { name, role: entry.role, holder, tokenHash, source: 'env' });
        // The setting is the truth about a token it names: a changed role or holder applies (a demotion too).
        else await this.reassign(em, known.id, entry.role, holder);
      }
    });
    this.envHashes = new Set(entries.map((e) => hashToken(e.token)));
    this.cache.clear();
  }

  private async reassign(em: EntityManager, tokenId: string, role: ApiRole, holder: string): Promise<void> {
    const merchantId = role === 'merchant' ? await this.merchantNamed(em, holder) : null;
    await em.query(
      `UPDATE api_tokens SET role = $2, merchant_id = $3, person = $4, source = 'env' WHERE id = $1`,
      [tokenId, role, merchantId, role === 'merchant' ? null : holder],
    );
  }

  private async merchantNamed(em: EntityManager, name: string): Promise<string> {
    const [merchant] = await em.query<Array<{ id: string }>>(
      `INSERT INTO merchants (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [name],
    );
    return merchant.id;
  }

  private async insert(em: EntityManager, t: { name: string; role: ApiRole; holder: string; tokenHash: string; source: 'env' | 'cli' }): Promise<void> {
    const merchantId = t.role === 'merchant' ? await this.merchantNamed(em, t.holder) : null;
    await em.query(
      `INSERT INTO api_tokens (name, role, token_hash, merchant_id, person, source) VALUES ($1, $2, $3, $4, $5, $6)`,
      [t.name, t.role, t.tokenHash, merchantId, t.role === 'merchant' ? null : t.holder, t.source],
    );
  }
}
