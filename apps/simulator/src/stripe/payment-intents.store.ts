import type { StripePaymentIntent } from './payment-intent.js';

/** Bounds on `created` (unix seconds), as Stripe's `created[gt|gte|lt|lte]` list parameters. */
export interface CreatedRange {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export interface IntentPage {
  data: StripePaymentIntent[];
  hasMore: boolean;
}

interface LedgerEntry {
  intent: StripePaymentIntent;
  /** Millisecond creation time: search lag is finer than `created`'s seconds. */
  createdAtMs: number;
  /** Position in creation order: where a `starting_after` cursor stands, whichever filter is applied. */
  seq: number;
}

/**
 * Every PaymentIntent the simulator holds, in creation order. Reads return the live objects; the HTTP
 * layer serialises them, so a later status change is visible to the next read, as at Stripe.
 */
export class PaymentIntentStore {
  private entries: LedgerEntry[] = [];
  private readonly byId = new Map<string, LedgerEntry>();
  /**
   * Each customer's intents, in creation order: a list by customer (how a lookup asks) reads only those, so a bench
   * holding tens of thousands of intents does not spend its simulator's event loop scanning all of them per query.
   */
  private readonly byCustomer = new Map<string, LedgerEntry[]>();

  add(intent: StripePaymentIntent, createdAtMs: number): void {
    const entry = { intent, createdAtMs, seq: this.entries.length };
    this.entries.push(entry);
    this.byId.set(intent.id, entry);
    if (!intent.customer) return;
    const ofCustomer = this.byCustomer.get(intent.customer);
    if (ofCustomer) ofCustomer.push(entry);
    else this.byCustomer.set(intent.customer, [entry]);
  }

  get(id: string): StripePaymentIntent | undefined {
    return this.byId.get(id)?.intent;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Strongly consistent, newest first. `startingAfter` is a cursor in the global order (as at Stripe), so it
   * may name an intent the filter excludes; callers check it exists with `get` first.
   */
  list(filter: { customer?: string; created: CreatedRange; limit: number; startingAfter?: string }): IntentPage {
    const candidates = filter.customer ? (this.byCustomer.get(filter.customer) ?? []) : this.entries;
    const cursor = filter.startingAfter ? this.byId.get(filter.startingAfter) : undefined;
    const before = cursor ? cursor.seq : Infinity;
    // One more than the page holds is enough to know whether there is more.
    const matching: LedgerEntry[] = [];
    for (let i = candidates.length - 1; i >= 0 && matching.length <= filter.limit; i--) {
      const entry = candidates[i];
      if (entry.seq < before && inRange(entry.intent.created, filter.created)) matching.push(entry);
    }
    return page(matching, filter.limit);
  }

  /** What search can see: only intents created at least `lagMs` ago, newest first. */
  search(matches: (intent: StripePaymentIntent) => boolean, lagMs: number, nowMs: number, offset: number, limit: number): IntentPage {
    const visible = this.newestFirst().filter(({ intent, createdAtMs }) => createdAtMs <= nowMs - lagMs && matches(intent));
    return page(visible.slice(offset), limit);
  }

  find(matches: (intent: StripePaymentIntent) => boolean): StripePaymentIntent[] {
    return this.entries.filter(({ intent }) => matches(intent)).map(({ intent }) => intent);
  }

  clear(): void {
    this.entries = [];
    this.byId.clear();
    this.byCustomer.clear();
  }

  private newestFirst(): LedgerEntry[] {
    return [...this.entries].reverse();
  }
}

function inRange(created: number, range: CreatedRange): boolean {
  return (
    (range.gt === undefined || created > range.gt) &&
    (range.gte === undefined || created >= range.gte) &&
    (range.lt === undefined || created < range.lt) &&
    (range.lte === undefined || created <= range.lte)
  );
}

function page(entries: LedgerEntry[], limit: number): IntentPage {
  return { data: entries.slice(0, limit).map(({ intent }) => intent), hasMore: entries.length > limit };
}
