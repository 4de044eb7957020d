import { performance } from 'node:perf_hooks';
import { parseJson } from '@app/common';
import type { ProviderHttpClient } from '../http/provider-http.client.js';

export type TokenOutcome =
  | { ok: true; accessToken: string }
  | { ok: false; errorCode: string; message: string; httpStatus: number | null; durationMs: number };

/** A token is dropped this long before Efí says it expires, so a call never leaves with one about to lapse. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * OAuth2 client credentials (`POST /oauth/token`, HTTP Basic with the client id and secret). The token is cached
 * until shortly before `expires_in` and fetched once for all concurrent callers. The secret lives only in a
 * private field and the Authorization header; it is never in an outcome, a message or a log.
 */
export class EfiOAuthClient {
  readonly #basic: string;
  private cached: { accessToken: string; expiresAtMs: number } | null = null;
  private inFlight: Promise<TokenOutcome> | null = null;

  constructor(
    private readonly http: ProviderHttpClient,
    private readonly apiBase: string,
    clientId: string,
    clientSecret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
  }

  token(): Promise<TokenOutcome> {
    if (this.cached && this.now() < this.cached.expiresAtMs) return Promise.resolve({ ok: true, accessToken: this.cached.accessToken });
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** After a 401: this token is no good, whatever its expiry said. */
  invalidate(accessToken: string): void {
    if (this.cached?.accessToken === accessToken) this.cached = null;
  }

  private async fetchToken(): Promise<TokenOutcome> {
    const startedAt = performance.now();
    const result = await this.http.send({
      method: 'POST',
      url: `${this.apiBase}/oauth/token`,
      headers: { Authorization: this.#basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    const durationMs = Math.round(performance.now() - startedAt);
    if (result.kind !== 'response') return { ok: false, errorCode: result.errorCode, message: `POST /oauth/token: ${result.kind}`, httpStatus: null, durationMs };
    const body = parseJson(result.body) as { access_token?: unknown; expires_in?: unknown } | undefined;
    const accessToken = body?.access_token;
    if (result.status !== 200 || typeof accessToken !== 'string' || accessToken.length === 0) {
      return { ok: false, errorCode: 'OAUTH_REFUSED', message: `POST /oauth/token answered ${result.status} without a token`, httpStatus: result.status, durationMs };
    }
    const lifetimeMs = typeof body?.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 0;
    // A token whose lifetime is shorter than the margin is used for this call only.
    this.cached = lifetimeMs > EXPIRY_MARGIN_MS ? { accessToken, expiresAtMs: this.now() + lifetimeMs - EXPIRY_MARGIN_MS } : null;
    return { ok: true, accessToken };
  }
}
