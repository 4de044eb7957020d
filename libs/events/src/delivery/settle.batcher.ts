import type { DeliveryStore, Settle } from './delivery.store.js';

/**
 * Tries that finish within one short window are recorded by one statement: at a few hundred deliveries a second,
 * the database writes a batch per commit instead of a commit per delivery. Each caller still learns whether its
 * own row was settled; a failed statement fails every caller of its batch (their leases run out and the
 * deliveries are sent again, under the same webhook-id).
 */
export class SettleBatcher {
  private waiting: Array<{ settle: Settle; resolve: (held: boolean) => void; reject: (error: unknown) => void }> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: DeliveryStore,
    private readonly windowMs: number,
    private readonly maxBatch: number,
  ) {}

  /** Whether the row was still this try's, and so settled. */
  settle(settle: Settle): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ settle, resolve, reject });
      if (this.waiting.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    this.store.settle(batch.map((w) => w.settle)).then(
      (settled) => { for (const w of batch) w.resolve(settled.has(String(w.settle.delivery.id))); },
      (error: unknown) => { for (const w of batch) w.reject(error); },
    );
  }
}
