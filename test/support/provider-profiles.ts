import { randomUUID } from 'node:crypto';
import type { AttemptView } from '@app/charges';
import type { Simulator } from '@app/simulator';

/**
 * What differs between providers as seen from a test: how a charge for it is written, and how the
 * simulator is asked what the provider holds. Everything else in a scenario is the same code, so a
 * scenario that passes for both shows the attempt model does not lean on any one provider's help.
 */
export interface ProviderProfile {
  provider: 'stripe' | 'asaas';
  /** A valid charge body for this provider (unique order and customer). */
  chargeBody(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** Every charge the provider holds that carries this attempt's reference. */
  chargesFor(sim: Simulator, attemptId: string): Array<{ id: string }>;
  /** Charges the provider created for this attempt, by its own count (a second one is a double charge). */
  createsFor(sim: Simulator, attempt: Pick<AttemptView, 'id' | 'idempotencyKey'>): number;
  /** Create requests that reached the provider for this attempt. */
  requestsFor(sim: Simulator, attempt: Pick<AttemptView, 'id' | 'idempotencyKey'>): number;
  /** Lookups the resolver made (list, search and retrieve calls). */
  lookups(sim: Simulator): number;
  /** Makes the provider's lookup by reference lag behind creates (Stripe's list never lags: its search does). */
  setLookupLag(sim: Simulator, ms: number): void;
  /** Whether the lookup the resolver uses lags at all. */
  lookupLags: boolean;
  providerChargeId: RegExp;
  /** A decline: Stripe keeps the declined intent, Asaas refuses the card without creating a payment. */
  declineCreates: number;
  /** The provider's error code for an amount below its minimum. */
  amountTooSmallCode: string;
  /** Charge fields the api lets through that the provider refuses as below its minimum (only it can tell). */
  belowProviderMinimum: Record<string, unknown>;
  /**
   * What a first send records when the provider refuses connections: Stripe's create never connected; before an
   * Asaas create, the check of the attempt's reference (first-send.check.ts) could not connect either.
   */
  refusedFirstSendReason: string;
}

const customer = () => `cus_${randomUUID().slice(0, 12)}`;

export const STRIPE_PROFILE: ProviderProfile = {
  provider: 'stripe',
  chargeBody: (overrides = {}) => ({
    orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'usd', customerId: customer(), paymentMethodId: 'pm_card_visa', provider: 'stripe', ...overrides,
  }),
  chargesFor: (sim, attemptId) => sim.intents({ attemptId }),
  createsFor: (sim, attempt) => sim.stats().createsByIdempotencyKey[attempt.idempotencyKey] ?? 0,
  requestsFor: (sim, attempt) => sim.requests(attempt.idempotencyKey).length,
  lookups: (sim) => {
    const { lists, searches, retrieves } = sim.stats().requests;
    return lists + searches + retrieves;
  },
  setLookupLag: (sim, ms) => sim.configure({ searchLagMs: ms }),
  lookupLags: false,
  providerChargeId: /^pi_/,
  declineCreates: 1,
  amountTooSmallCode: 'amount_too_small',
  // Stripe's published minimums are checked at create (usd 10 is a 422 there); a currency with no published
  // minimum must convert to at least $0.50, which only Stripe can tell at the moment of the charge.
  belowProviderMinimum: { amountCents: 10, currency: 'cop' },
  refusedFirstSendReason: 'connect_failed',
};

export const ASAAS_PROFILE: ProviderProfile = {
  provider: 'asaas',
  chargeBody: (overrides = {}) => {
    // A card tokenised by the caller (Asaas creditCardToken) and the buyer's IP: charged in the create call.
    // Undefined, not absent, for the others: it overrides the stack's default Stripe payment method.
    const card = (overrides.billingType ?? 'CREDIT_CARD') === 'CREDIT_CARD' ? { paymentMethodId: randomUUID(), customerIp: '203.0.113.7' } : { paymentMethodId: undefined, customerIp: undefined };
    return { orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'brl', customerId: customer(), billingType: 'CREDIT_CARD', ...card, provider: 'asaas', ...overrides };
  },
  chargesFor: (sim, attemptId) => sim.asaasPayments({ externalReference: attemptId }),
  createsFor: (sim, attempt) => sim.stats().asaas.createsByExternalReference[attempt.id] ?? 0,
  requestsFor: (sim, attempt) => sim.asaasRequests(attempt.id).length,
  lookups: (sim) => {
    const { lists, retrieves } = sim.stats().asaas.requests;
    return lists + retrieves;
  },
  setLookupLag: (sim, ms) => sim.configure({ asaasListLagMs: ms }),
  lookupLags: true,
  providerChargeId: /^pay_/,
  declineCreates: 0,
  amountTooSmallCode: 'invalid_value',
  belowProviderMinimum: { amountCents: 10 },
  refusedFirstSendReason: 'first_send_check_unanswered',
};

export const PROVIDER_PROFILES: ProviderProfile[] = [STRIPE_PROFILE, ASAAS_PROFILE];
