import { performance } from 'node:perf_hooks';
import type { ProviderOutcome } from './gateway-call.result.js';

export interface ProviderCharge {
  providerChargeId: string;
  outcome: ProviderOutcome;
  amountCents: number;
  currency: string;
  attemptId: string | null;
  raw: unknown;
  /**
   * YYYY-MM-DD: a created charge that waits for its payer (a boleto or Pix) and may be paid until this due date.
   * Absent when the charge does not wait for anyone (a card), or once it is paid or cancelled.
   */
  payableUntil?: string | null;
}

export type LookupResult =
  | { kind: 'found'; charges: ProviderCharge[]; consistent: boolean; durationMs: number }
  | { kind: 'not_found'; consistent: boolean; durationMs: number }
  /** The query itself failed (timeout, 5xx, 429): it proves nothing either way. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

export type RetrieveResult =
  | { kind: 'found'; charge: ProviderCharge; durationMs: number }
  /** The provider answered that no charge has this id. */
  | { kind: 'not_found'; durationMs: number }
  /** The query failed or the adapter cannot retrieve by id: it proves nothing either way. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

/** A lookup's answer from the charges it found (none: not found), timed from `startedAt`. */
export function lookupResult(charges: ProviderCharge[], consistent: boolean, startedAt: number): LookupResult {
  const durationMs = elapsedSince(startedAt);
  return charges.length > 0 ? { kind: 'found', charges, consistent, durationMs } : { kind: 'not_found', consistent, durationMs };
}

export function lookupError(failure: { message: string; httpStatus: number | null }, startedAt: number): LookupResult {
  return { kind: 'error', message: failure.message, httpStatus: failure.httpStatus, durationMs: elapsedSince(startedAt) };
}

export function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}
