import { createHash } from 'node:crypto';

export interface StoredResponse {
  status: number;
  /** The exact JSON text first sent, so a replay is byte-identical. */
  body: string;
}

type Entry = { fingerprint: string; response: StoredResponse | null };

export type KeyLookup =
  | { kind: 'unused' }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' }
  | { kind: 'replay'; response: StoredResponse };

/**
 * Stripe's idempotency layer: once a request with a key begins executing, its parameters' fingerprint is
 * saved, and the status and body it produced (500s and 402s included) answer every later use of the key.
 * Requests rejected before execution (validation, 429, conflicts) never touch the store.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  static fingerprint(rawBody: string): string {
    return createHash('sha256').update(rawBody).digest('hex');
  }

  lookup(key: string, fingerprint: string): KeyLookup {
    const entry = this.entries.get(key);
    if (!entry) return { kind: 'unused' };
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
    return entry.response ? { kind: 'replay', response: entry.response } : { kind: 'in_flight' };
  }

  /** Marks the key as executing; callers `lookup` first, in the same tick, so no one else holds it. */
  begin(key: string, fingerprint: string): void {
    this.entries.set(key, { fingerprint, response: null });
  }

  complete(key: string, response: StoredResponse): void {
    const entry = this.entries.get(key);
    if (entry) entry.response = response;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Stripe prunes a key once it is 24 hours old: later requests with it run as new ones. Returns how many it forgot. */
  prune(): number {
    const forgotten = this.entries.size;
    this.entries.clear();
    return forgotten;
  }
}
