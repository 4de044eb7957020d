import type { LoggedCreateRequest } from './create-request-log.js';
import type { FaultPlan, PendingFaultRule } from './fault-plan.js';
import type { IntentStatus, StripePaymentIntent } from './stripe/payment-intent.js';
import type { PlantChargeInput } from './stripe/stripe-statement.js';
import type { SimulatorConfig, SimulatorConfigPatch } from './simulator-config.js';
import type { SimulatorStatsSnapshot } from './simulator-stats.js';
import type { StripeEventType } from './stripe/stripe-events.js';
import type { WebhookDelivery } from './webhook-sender.js';
import type { AsaasBookedMovement, AsaasMovementType, PlantAsaasPaymentInput } from './asaas/asaas-engine.js';
import type { AsaasEventType } from './asaas/asaas-events.js';
import type { AsaasPayment, AsaasPaymentStatus } from './asaas/asaas-payment.js';
import type { RefundStatus, StripeRefund } from './stripe/refund.js';

export interface SimulatorOptions extends SimulatorConfigPatch {
  /** Stripe API port; 0 (the default) picks a free one. */
  port?: number;
  /** Control API port; 0 (the default) picks a free one. */
  controlPort?: number;
  /** Interface both servers bind to; 127.0.0.1 by default. */
  host?: string;
  /** Timestamp every query (GET under `/v1/`) as it arrives, for `queryArrivals()`; off by default. */
  recordQueryArrivals?: boolean;
}

/**
 * A running simulator. Every method mirrors a route of the control API (`/_sim/...` on `controlUrl`), so a
 * test in the same process calls these and a test in another process uses HTTP, with the same effect.
 */
export interface Simulator {
  /** Base URL of the Stripe-imitating API, e.g. `http://127.0.0.1:12111`: use it as `STRIPE_API_BASE`. */
  readonly apiUrl: string;
  readonly controlUrl: string;

  /** `GET /_sim/stats` */
  stats(): SimulatorStatsSnapshot;
  /** `GET /_sim/arrivals`: when each query arrived (ms, this process's monotonic clock), if `recordQueryArrivals`. */
  queryArrivals(): { recording: boolean; at: number[] };
  /** `GET /_sim/requests?idempotencyKey=K`: create requests as received (Authorization redacted). */
  requests(idempotencyKey?: string): LoggedCreateRequest[];
  /** `GET /_sim/intents?attemptId=&customerId=` */
  intents(filter?: { attemptId?: string; customerId?: string }): StripePaymentIntent[];
  /** `GET /_sim/refunds?paymentIntentId=&refundAttemptId=` */
  refunds(filter?: { paymentIntentId?: string; refundAttemptId?: string }): StripeRefund[];
  /** `POST /_sim/refunds/:id/status {status}`: moves a refund and sends `refund.updated` (and `charge.refunded`). */
  /** `created` (unix seconds, default now) dates the balance transaction the change books, if any. */
  setRefundStatus(refundId: string, status: RefundStatus, created?: number): StripeRefund;
  /** `GET /_sim/config` */
  config(): SimulatorConfig;
  /** `POST /_sim/config`: merges the patch; returns the new configuration. */
  configure(patch: SimulatorConfigPatch): SimulatorConfig;
  /** `POST /_sim/faults`: replaces the whole plan. */
  setFaults(plan: FaultPlan): void;
  /** `GET /_sim/faults`: rules not yet used up. */
  pendingFaults(): PendingFaultRule[];
  /** `POST /_sim/listener {accepting:false}`: closes the API port, so connections are refused. */
  refuseConnections(): Promise<void>;
  /** `POST /_sim/listener {accepting:true}`: listens again on the same port. */
  acceptConnections(): Promise<void>;
  /** `POST /_sim/intents/:id/status {status}`: moves an intent and sends the matching webhook. */
  setIntentStatus(intentId: string, status: IntentStatus): StripePaymentIntent;
  /** `POST /_sim/webhooks/send {eventType, intentId}`: one correctly signed event, now. */
  sendWebhook(input: { eventType: StripeEventType; intentId: string }): Promise<WebhookDelivery>;
  /** `POST /_sim/webhooks/forge {type, attemptId?}`: one event signed with the wrong secret, now. */
  forgeWebhook(input: { type: StripeEventType; attemptId?: string }): Promise<WebhookDelivery>;
  /** `POST /_sim/statement/charges {charges:[...]}`: money taken at the provider, backdatable into any day. */
  plantCharges(charges: PlantChargeInput[]): Array<{ paymentIntentId: string; balanceTransactionId: string }>;
  /** `POST /_sim/intents/:id/refund|dispute {amount?, created?}`: a negative statement line for a charge. */
  addMovement(intentId: string, kind: 'refund' | 'dispute', input?: { amount?: number; created?: number; sourceId?: string }): { balanceTransactionId: string };
  /** `GET /_sim/webhooks`: every delivery attempted, in order. */
  webhookDeliveries(): WebhookDelivery[];
  /** `GET /_sim/asaas/payments?externalReference=&customer=`: every Asaas payment, deleted or not, never lagged. */
  asaasPayments(filter?: { externalReference?: string; customer?: string }): AsaasPayment[];
  /** `POST /_sim/asaas/statement/payments {payments:[...]}`: payments received at Asaas on a given day, with no webhook. */
  plantAsaasPayments(payments: PlantAsaasPaymentInput[]): AsaasPayment[];
  /** `GET /_sim/asaas/requests?externalReference=R`: Asaas create requests as received (access token kept out). */
  asaasRequests(externalReference?: string): LoggedCreateRequest[];
  /** `POST /_sim/asaas/payments/:id/status {status}`: moves a payment (the payer paid) and sends its webhook. */
  setAsaasPaymentStatus(paymentId: string, status: AsaasPaymentStatus): AsaasPayment;
  /** Books a chargeback, its reversal, a custody block or its release in Asaas's extrato (the payment's value), dated `on`. */
  bookAsaasMovement(paymentId: string, type: AsaasMovementType, on?: string): AsaasBookedMovement;
  /** `POST /_sim/asaas/payments/:id/refunds/:index {status, bookedOn?}`: settles a PENDING refund DONE (dated in the extrato `bookedOn`) or CANCELLED, or cancels a DONE one. */
  settleAsaasRefund(paymentId: string, index: number, status: 'DONE' | 'CANCELLED', bookedOn?: string): AsaasPayment;
  /** `POST /_sim/asaas/webhooks/send {event, paymentId, forged?}`: one event now; forged carries the wrong token. */
  sendAsaasWebhook(input: { event: AsaasEventType; paymentId: string; forged?: boolean }): Promise<WebhookDelivery>;
  /** `GET /_sim/asaas/webhooks`: every Asaas delivery attempted, in order. */
  asaasWebhookDeliveries(): WebhookDelivery[];
  /** Resolves once every scheduled webhook has been delivered or dropped (in-process only). */
  webhooksIdle(): Promise<void>;
  /** `POST /_sim/idempotency/prune`: Stripe's keys forgotten as after their 24 h lifetime (intents stay); how many. */
  pruneIdempotencyKeys(): { pruned: number };
  /** `POST /_sim/reset`: forgets intents, keys, faults, counters and logs; back to the start options. */
  reset(): Promise<void>;
  close(): Promise<void>;
}
