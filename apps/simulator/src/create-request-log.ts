import type { IncomingHttpHeaders } from 'node:http';

export interface LoggedCreateRequest {
  idempotencyKey: string | null;
  /** The body exactly as received, to prove a resend carried the same bytes. */
  rawBody: string;
  /** Received headers; the Authorization and access_token values are replaced, never kept. */
  headers: Record<string, string>;
  receivedAt: string;
}

/** Credentials: Stripe's bearer key, Asaas's access token. */
const REDACTED_HEADERS = new Set(['authorization', 'access_token']);

/** Keeps a long benchmark from turning the log into the simulator's memory problem. */
const MAX_KEPT_REQUESTS = 100_000;

/** Every create request received (the latest 100,000), in arrival order, whatever happened to it afterwards. */
export class CreateRequestLog {
  private entries: LoggedCreateRequest[] = [];

  record(idempotencyKey: string | null, rawBody: string, headers: IncomingHttpHeaders, receivedAtMs: number): void {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      kept[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
    }
    this.entries.push({ idempotencyKey, rawBody, headers: kept, receivedAt: new Date(receivedAtMs).toISOString() });
    // Trimmed in slices, not one shift per request: shifting a long array is a copy each time.
    if (this.entries.length > MAX_KEPT_REQUESTS * 1.1) this.entries = this.entries.slice(-MAX_KEPT_REQUESTS);
  }

  /** All requests, or only those carrying `idempotencyKey`. */
  list(idempotencyKey?: string): LoggedCreateRequest[] {
    const selected = idempotencyKey === undefined ? this.entries : this.entries.filter((e) => e.idempotencyKey === idempotencyKey);
    return structuredClone(selected);
  }

  clear(): void {
    this.entries = [];
  }
}
