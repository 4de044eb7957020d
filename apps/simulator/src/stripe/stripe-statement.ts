import { InvalidControlInput } from '../control-input.js';
import { newStripeId } from '../ids.js';
import { BalanceTransactionStore } from './balance-transactions.store.js';
import { moveIntentTo, newPaymentIntent, type StripePaymentIntent } from './payment-intent.js';
import type { PaymentIntentStore } from './payment-intents.store.js';
import type { StripeRefund } from './refund.js';
import { ReportRunStore } from './report-runs.store.js';

/**
 * Stripe's statement: every balance change (a charge, a refund, a dispute) as a balance transaction indexed by day,
 * and the report runs that export them. Written when money moves, or planted through the control API.
 */
export class StripeStatement {
  readonly balance = new BalanceTransactionStore();
  readonly reportRuns = new ReportRunStore();

  constructor(private readonly intents: PaymentIntentStore) {}

  /** A succeeded intent moves money once: its charge line is written the first time it succeeds. */
  recordChargeIfSucceeded(intent: StripePaymentIntent): void {
    if (intent.status !== 'succeeded' || this.balance.chargeOf(intent.id) || !intent.latest_charge) return;
    this.balance.add({
      id: this.balance.newId('txn'), created: Math.floor(Date.now() / 1000), type: 'charge', category: 'charge', amount: intent.amount,
      currency: intent.currency, sourceId: intent.latest_charge, chargeId: intent.latest_charge, paymentIntentId: intent.id,
      customer: intent.customer, metadata: intent.metadata,
    });
  }

  /**
   * Money taken at the provider that our service may never have recorded: a succeeded intent with its charge
   * line, `created` backdated into any day. `recordIntent: false` keeps only the statement line (bulk
   * benchmark days hold a million of them without a PaymentIntent object each).
   */
  plantCharge(input: PlantChargeInput): { paymentIntentId: string; balanceTransactionId: string } {
    const created = input.created ?? Math.floor(Date.now() / 1000);
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new InvalidControlInput('amount must be a positive integer');
    if (!Number.isInteger(created)) throw new InvalidControlInput('created must be unix seconds');
    const metadata = input.metadata ?? {};
    let paymentIntentId = input.paymentIntentId ?? newStripeId('pi');
    let chargeId = this.balance.newId('ch');
    if (input.recordIntent !== false) {
      const params = { amount: input.amount, currency: input.currency ?? 'usd', customer: input.customer ?? null, paymentMethod: 'pm_card_visa', confirm: true, metadata };
      const intent = moveIntentTo(newPaymentIntent(params, created * 1000), 'succeeded', created * 1000);
      paymentIntentId = intent.id;
      chargeId = intent.latest_charge!;
      this.intents.add(intent, created * 1000);
    }
    const entry = this.balance.add({
      id: this.balance.newId('txn'), created, type: 'charge', category: 'charge', amount: input.amount, currency: input.currency ?? 'usd',
      sourceId: chargeId, chargeId, paymentIntentId, customer: input.customer ?? null, metadata,
    });
    return { paymentIntentId, balanceTransactionId: entry.id };
  }

  /** Money that went back is in the statement, as Stripe's refund balance transaction. */
  recordRefund(refund: StripeRefund, now: number): void {
    if (this.balance.chargeOf(refund.payment_intent)) this.addMovement(refund.payment_intent, 'refund', { amount: refund.amount, created: Math.floor(now / 1000), sourceId: refund.id, metadata: refund.metadata });
  }

  /**
   * A refund that failed after its refund line: Stripe gives the money back to the balance with a `refund_failure`
   * balance transaction (the refund's `failure_balance_transaction`), its source the refund. Answers its id.
   */
  recordRefundFailure(refund: StripeRefund, now: number): string | null {
    const charge = this.balance.chargeOf(refund.payment_intent);
    if (!charge) return null;
    const entry = this.balance.add({
      ...charge,
      id: this.balance.newId('txn'),
      created: Math.floor(now / 1000),
      type: 'refund_failure',
      category: 'refund_failure',
      amount: refund.amount,
      sourceId: refund.id,
      sourceMetadata: refund.metadata,
    });
    return entry.id;
  }

  /** A refund or dispute of a charged intent: a negative statement line, `created` backdatable. */
  addMovement(intentId: string, kind: 'refund' | 'dispute', input: { amount?: number; created?: number; sourceId?: string; metadata?: Record<string, string> } = {}): { balanceTransactionId: string } {
    const charge = this.balance.chargeOf(intentId);
    if (!charge) throw new InvalidControlInput(`no charge for payment intent ${intentId}`);
    const amount = input.amount ?? charge.amount;
    if (!Number.isInteger(amount) || amount <= 0) throw new InvalidControlInput('amount must be a positive integer');
    const entry = this.balance.add({
      ...charge,
      id: this.balance.newId('txn'),
      created: input.created ?? Math.floor(Date.now() / 1000),
      type: kind === 'refund' ? 'refund' : 'adjustment',
      category: kind,
      amount: -amount,
      sourceId: input.sourceId ?? this.balance.newId(kind === 'refund' ? 're' : 'du'),
      sourceMetadata: input.metadata,
    });
    return { balanceTransactionId: entry.id };
  }

  clear(): void {
    this.balance.clear();
    this.reportRuns.clear();
  }
}

export interface PlantChargeInput {
  amount: number;
  currency?: string;
  /** Unix seconds; defaults to now. */
  created?: number;
  metadata?: Record<string, string>;
  customer?: string;
  /** Only with `recordIntent: false`; otherwise the intent gets a fresh id. */
  paymentIntentId?: string;
  recordIntent?: boolean;
}
