/** One balance change at the simulated provider: a charge, a refund or a dispute. */
export interface BalanceEntry {
  id: string;
  /** Global insertion order: ties on `created` are broken by it, as a stable list order needs. */
  seq: number;
  /** Unix seconds. */
  created: number;
  type: 'charge' | 'refund' | 'refund_failure' | 'adjustment';
  category: 'charge' | 'refund' | 'refund_failure' | 'dispute';
  /** Signed minor units: a refund or dispute is negative, a refund's reversal (refund_failure) positive. */
  amount: number;
  currency: string;
  /** The Charge, Refund or Dispute id. */
  sourceId: string;
  chargeId: string;
  paymentIntentId: string;
  customer: string | null;
  /** The payment's metadata (shared with the intent, never copied). */
  metadata: Record<string, string>;
  /** A refund's own metadata (ours: `refund_attempt_id`), shown on its expanded source. */
  sourceMetadata?: Record<string, string>;
}

export interface BalanceRange {
  gte?: number;
  lt?: number;
}

const DAY_S = 86_400;

/**
 * Every balance change, indexed by UTC day and kept sorted by (created, seq) within each day, so a
 * million-line day is listed by walking one array from a cursor: no copy, no filter of everything held.
 */
export class BalanceTransactionStore {
  private readonly days = new Map<number, BalanceEntry[]>();
  /** Day numbers present, ascending. */
  private dayNumbers: number[] = [];
  private readonly byId = new Map<string, BalanceEntry>();
  private readonly chargeByIntent = new Map<string, BalanceEntry>();
  private nextSeq = 0;
  private idCounter = 0;
  /** Per simulator, so two simulators writing to one database never share a line id. */
  private readonly tag = Math.random().toString(36).slice(2, 12).padEnd(10, '0');

  get size(): number {
    return this.byId.size;
  }

  get(id: string): BalanceEntry | undefined {
    return this.byId.get(id);
  }

  chargeOf(paymentIntentId: string): BalanceEntry | undefined {
    return this.chargeByIntent.get(paymentIntentId);
  }

  /** A fresh id for a line or its source (`txn_`, `ch_`, `re_`, `du_`): unique, cheap, Stripe-shaped. */
  newId(prefix: string): string {
    return `${prefix}_${this.tag}${(this.idCounter++).toString(36).padStart(12, '0')}`;
  }

  add(entry: Omit<BalanceEntry, 'seq'>): BalanceEntry {
    // The caller's object is kept as is (no copy): a million-line day is a million objects, not two million.
    const stored = entry as BalanceEntry;
    stored.seq = this.nextSeq++;
    const dayNumber = Math.floor(stored.created / DAY_S);
    let day = this.days.get(dayNumber);
    if (!day) {
      day = [];
      this.days.set(dayNumber, day);
      this.dayNumbers = [...this.dayNumbers, dayNumber].sort((a, b) => a - b);
    }
    // Usually an append; a backdated line is inserted where it belongs.
    let at = day.length;
    while (at > 0 && compare(day[at - 1], stored) > 0) at -= 1;
    if (at === day.length) day.push(stored);
    else day.splice(at, 0, stored);
    this.byId.set(stored.id, stored);
    if (stored.category === 'charge' && !this.chargeByIntent.has(stored.paymentIntentId)) this.chargeByIntent.set(stored.paymentIntentId, stored);
    return stored;
  }

  /** Newest first, from just after `startingAfter` when given (a cursor in the global order, as at Stripe). */
  *newestFirst(range: BalanceRange, startingAfter?: BalanceEntry): Generator<BalanceEntry> {
    for (let d = this.dayNumbers.length - 1; d >= 0; d -= 1) {
      const dayNumber = this.dayNumbers[d];
      if (!this.dayOverlaps(dayNumber, range)) continue;
      if (startingAfter && dayNumber > Math.floor(startingAfter.created / DAY_S)) continue;
      const day = this.days.get(dayNumber)!;
      let i = day.length - 1;
      if (startingAfter && dayNumber === Math.floor(startingAfter.created / DAY_S)) i = lowerBound(day, startingAfter) - 1;
      for (; i >= 0; i -= 1) if (inRange(day[i].created, range)) yield day[i];
    }
  }

  /** Oldest first: the order of a report file. */
  *oldestFirst(range: BalanceRange): Generator<BalanceEntry> {
    for (const dayNumber of this.dayNumbers) {
      if (!this.dayOverlaps(dayNumber, range)) continue;
      for (const entry of this.days.get(dayNumber)!) if (inRange(entry.created, range)) yield entry;
    }
  }

  clear(): void {
    this.days.clear();
    this.dayNumbers = [];
    this.byId.clear();
    this.chargeByIntent.clear();
    this.nextSeq = 0;
  }

  private dayOverlaps(dayNumber: number, range: BalanceRange): boolean {
    const start = dayNumber * DAY_S;
    return (range.gte === undefined || start + DAY_S > range.gte) && (range.lt === undefined || start < range.lt);
  }
}

function compare(a: BalanceEntry, b: BalanceEntry): number {
  return a.created - b.created || a.seq - b.seq;
}

/** Index of the first entry not before `target`. */
function lowerBound(day: BalanceEntry[], target: BalanceEntry): number {
  let low = 0;
  let high = day.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(day[mid], target) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

function inRange(created: number, range: BalanceRange): boolean {
  return (range.gte === undefined || created >= range.gte) && (range.lt === undefined || created < range.lt);
}
