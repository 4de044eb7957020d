import type { StripeRefund } from './refund.js';

/** Every Refund the simulator holds, in creation order; listing by payment intent is strongly consistent. */
export class RefundStore {
  private entries: StripeRefund[] = [];
  private readonly byId = new Map<string, StripeRefund>();

  add(refund: StripeRefund): void {
    this.entries.push(refund);
    this.byId.set(refund.id, refund);
  }

  get(id: string): StripeRefund | undefined {
    return this.byId.get(id);
  }

  /** Newest first, as Stripe lists; `startingAfter` is a cursor in that order. */
  listByIntent(intentId: string | undefined, limit: number, startingAfter?: string): { data: StripeRefund[]; hasMore: boolean } {
    const ordered = [...this.entries].reverse().filter((r) => intentId === undefined || r.payment_intent === intentId);
    const start = startingAfter ? ordered.findIndex((r) => r.id === startingAfter) + 1 : 0;
    const rest = ordered.slice(start);
    return { data: rest.slice(0, limit), hasMore: rest.length > limit };
  }

  find(matches: (refund: StripeRefund) => boolean): StripeRefund[] {
    return this.entries.filter(matches);
  }

  clear(): void {
    this.entries = [];
    this.byId.clear();
  }
}
