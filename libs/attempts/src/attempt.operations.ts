import type { EntityManager } from 'typeorm';
import type { AttemptOperationColumn } from '@app/database';
import type { GatewayCallResult, LookupResult, OperationPorts, ProviderPorts } from '@app/gateways';
import { inSpan } from '@app/observability';
import { capturedProviderChargeId, isCapture } from './capture.sql.js';

export type AttemptOperation = AttemptOperationColumn;

/**
 * Everything the one sender, resolver and applier need to know about what an attempt realises, read in
 * one query: the money the provider must report (the charge's amount, or the refund's), and where to look.
 */
export interface AttemptTarget {
  attemptId: string;
  operation: AttemptOperation;
  /** Null for a payout, and for the refund of a provider charge of no charge of ours (an executed proposal). */
  chargeId: string | null;
  refundId: string | null;
  payoutId: string | null;
  provider: string;
  /** Null for a payout. */
  customerId: string | null;
  createdAt: Date;
  /** The charge's creation, for a charge attempt: no request of the attempt's id can be older (survivable-ids.ts). */
  chargeCreatedAt: Date | null;
  /** The provider's id for this attempt (a payment intent, or a refund), once known. */
  providerChargeId: string | null;
  expected: { amountCents: number; currency: string };
  /**
   * For a refund: the provider's id of the refunded charge (the one a proposal names, else our charge's capture, a
   * late one included: the refund opener refunds that one, and the first-send check looks for the refund there).
   */
  refundedProviderChargeId: string | null;
}

/** The provider calls that create and find one operation's attempts, through that operation's port. */
interface OperationCalls<O extends AttemptOperation> {
  create(port: OperationPorts[O], idempotencyKey: string, payload: string): Promise<GatewayCallResult>;
  lookup(port: OperationPorts[O], target: AttemptTarget): Promise<LookupResult>;
}

/**
 * The only place that differs by operation: which provider call creates it and which finds it. The sender,
 * the resolver and the re-check pick the call here; every rule around the call is shared.
 */
const OPERATIONS: { [O in AttemptOperation]: OperationCalls<O> } = {
  charge: {
    create: (port, key, payload) => port.createCharge(key, payload),
    lookup: (port, t) =>
      port.findByReference({ attemptId: t.attemptId, chargeId: ownedBy(t), customerId: t.customerId ?? '', createdAt: t.createdAt, sentFrom: t.chargeCreatedAt ?? t.createdAt, providerChargeId: t.providerChargeId }),
  },
  refund: {
    create: (port, key, payload) => port.createRefund(key, payload),
    lookup: (port, t) =>
      t.refundedProviderChargeId && t.refundId
        ? port.findRefundByReference({ attemptId: t.attemptId, refundId: t.refundId, providerChargeId: t.refundedProviderChargeId, createdAt: t.createdAt, providerRefundId: t.providerChargeId })
        : Promise.resolve({ kind: 'error', message: 'the refunded charge has no provider id', httpStatus: null, durationMs: 0 }),
  },
  // A payout attempt's idempotency key is its own id, so its transfer id (Efí idEnvio) derives from either.
  payout: {
    create: (port, key, payload) => port.sendPix(port.transferIdFor(key), payload),
    lookup: (port, t) => port.findTransfer(port.transferIdFor(t.attemptId)),
  },
};

/** A charge attempt always belongs to a charge (the owner CHECK says so). */
function ownedBy(target: AttemptTarget): string {
  if (target.chargeId === null) throw new Error(`charge attempt ${target.attemptId} has no charge`);
  return target.chargeId;
}

function create<O extends AttemptOperation>(provider: ProviderPorts, operation: O, idempotencyKey: string, payload: string): Promise<GatewayCallResult> {
  return OPERATIONS[operation].create(provider.port(operation), idempotencyKey, payload);
}

function lookup<O extends AttemptOperation>(provider: ProviderPorts, operation: O, target: AttemptTarget): Promise<LookupResult> {
  return OPERATIONS[operation].lookup(provider.port(operation), target);
}

export function createAtProvider(provider: ProviderPorts, attempt: { operation: AttemptOperation; idempotencyKey: string; payload: string }): Promise<GatewayCallResult> {
  return create(provider, attempt.operation, attempt.idempotencyKey, attempt.payload);
}

/** One lookup at the provider, in a span naming the attempt, the provider and what the lookup found. */
export function lookupAtProvider(provider: ProviderPorts, target: AttemptTarget): Promise<LookupResult> {
  const attributes = { 'charge_once.attempt_id': target.attemptId, 'charge_once.provider': target.provider, 'charge_once.operation': target.operation };
  return inSpan('provider.lookup', attributes, async (span) => {
    const found = await lookup(provider, target.operation, target);
    span.setAttribute('charge_once.outcome', found.kind);
    return found;
  });
}

interface TargetRow {
  operation: AttemptOperation;
  charge_id: string | null;
  refund_id: string | null;
  payout_id: string | null;
  provider: string;
  customer_id: string | null;
  created_at: Date;
  charge_created_at: Date | null;
  provider_charge_id: string | null;
  amount_cents: string;
  currency: string;
  refunded_provider_charge_id: string | null;
}

export async function loadAttemptTarget(em: EntityManager, attemptId: string): Promise<AttemptTarget | null> {
  const [row] = await em.query<TargetRow[]>(
    `SELECT a.operation, a.charge_id, a.refund_id, a.payout_id, a.provider, c.customer_id, a.created_at, c.created_at AS charge_created_at, a.provider_ref AS provider_charge_id,
            COALESCE(r.amount_cents, p.amount_cents, c.amount_cents) AS amount_cents, COALESCE(r.currency, p.currency, c.currency) AS currency,
            CASE WHEN a.operation = 'refund' THEN
              COALESCE(r.provider_charge_id, (SELECT ${capturedProviderChargeId('s')} FROM attempts s
                WHERE s.charge_id = a.charge_id AND s.operation = 'charge' AND ${isCapture('s')})) END AS refunded_provider_charge_id
       FROM attempts a LEFT JOIN charges c ON c.id = a.charge_id LEFT JOIN refunds r ON r.id = a.refund_id
            LEFT JOIN payouts p ON p.id = a.payout_id
      WHERE a.id = $1`,
    [attemptId],
  );
  if (!row) return null;
  return {
    attemptId,
    operation: row.operation,
    chargeId: row.charge_id,
    refundId: row.refund_id,
    payoutId: row.payout_id,
    provider: row.provider,
    customerId: row.customer_id,
    createdAt: row.created_at,
    chargeCreatedAt: row.operation === 'charge' ? row.charge_created_at : null,
    providerChargeId: row.provider_charge_id,
    expected: { amountCents: Number(row.amount_cents), currency: row.currency.trim() },
    refundedProviderChargeId: row.refunded_provider_charge_id,
  };
}
