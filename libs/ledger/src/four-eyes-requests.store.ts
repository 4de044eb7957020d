import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { LedgerCreditRequestEntity, type LedgerCreditRequestKind } from '@app/database';
import {
  CreditRequestConfirmedError,
  CreditRequestNotFoundError,
  CreditSelfConfirmationError,
  LedgerReferenceReusedError,
  PayoutRequestConfirmedError,
  PayoutRequestNotFoundError,
  PayoutSelfConfirmationError,
} from './ledger.errors.js';

/** What a second admin confirms: a credit or a payout asked by another person, nothing moved yet. */
export interface FourEyesRequestView {
  id: string;
  kind: LedgerCreditRequestKind;
  amountCents: number;
  reference: string;
  requestedBy: string;
  state: string;
  confirmedBy: string | null;
}

const ERRORS = {
  credit: { notFound: CreditRequestNotFoundError, confirmed: CreditRequestConfirmedError, self: CreditSelfConfirmationError },
  payout: { notFound: PayoutRequestNotFoundError, confirmed: PayoutRequestConfirmedError, self: PayoutSelfConfirmationError },
} as const;

/**
 * The one four-eyes machinery for admin money on an account (`ledger_credit_requests`): ask, then a different
 * person confirms, once. The table's CHECK refuses `confirmed_by = requested_by` whatever a caller does, and the
 * confirmation is a guarded update whose row count is checked, in the transaction that moves the money.
 */
export async function askSecondPerson(
  em: EntityManager,
  input: { kind: LedgerCreditRequestKind; accountId: string; amountCents: number; reference: string; requestedBy: string; payout?: LedgerCreditRequestEntity['payout'] },
): Promise<LedgerCreditRequestEntity> {
  await em.query(
    `INSERT INTO ledger_credit_requests (id, account_id, amount_cents, reference, requested_by, state, kind, payout)
     VALUES ($1, $2, $3, $4, $5, 'awaiting_second', $6, $7) ON CONFLICT (account_id, reference) DO NOTHING`,
    [randomUUID(), input.accountId, input.amountCents, input.reference, input.requestedBy, input.kind, input.payout ? JSON.stringify(input.payout) : null],
  );
  const request = await em.getRepository(LedgerCreditRequestEntity).findOneByOrFail({ accountId: input.accountId, reference: input.reference });
  if (request.amountCents !== input.amountCents || request.kind !== input.kind || !samePayee(request.payout, input.payout ?? null)) {
    throw new LedgerReferenceReusedError(input.accountId, `${input.kind} request`, input.reference);
  }
  return request;
}

/** A payout request asked again under its reference must send to the same payee with the same words. */
function samePayee(stored: LedgerCreditRequestEntity['payout'], asked: LedgerCreditRequestEntity['payout']): boolean {
  if (stored === null || asked === null) return stored === asked;
  return stored.pixKey === asked.pixKey && stored.pixKeyType === asked.pixKeyType && (stored.description ?? null) === (asked.description ?? null);
}

/**
 * Under the request's row lock: the request a second person may confirm now, or the reason they may not (not
 * found on this account, already confirmed, asked by this same person). The caller moves the money, then marks it.
 */
export async function claimForConfirmation(em: EntityManager, kind: LedgerCreditRequestKind, accountId: string, requestId: string, person: string): Promise<LedgerCreditRequestEntity> {
  const errors = ERRORS[kind];
  const request = await em.getRepository(LedgerCreditRequestEntity).findOne({ where: { id: requestId, accountId, kind }, lock: { mode: 'pessimistic_write' } });
  if (!request) throw new errors.notFound(requestId);
  if (request.state !== 'awaiting_second') throw new errors.confirmed(requestId, request.confirmedBy ?? '');
  if (request.requestedBy === person) throw new errors.self(requestId, person);
  return request;
}

/** Confirmed once: exactly one row moves from `awaiting_second`, or the caller's transaction (and its money) fails. */
export async function markConfirmed(em: EntityManager, requestId: string, person: string, reason: string, payoutId: string | null = null): Promise<void> {
  const [, affected] = await em.query<[unknown, number]>(
    `UPDATE ledger_credit_requests SET state = 'confirmed', confirmed_by = $2, confirmed_at = now(), confirm_reason = $3, payout_id = $4
      WHERE id = $1 AND state = 'awaiting_second' AND requested_by <> $2`,
    [requestId, person, reason, payoutId],
  );
  if (affected !== 1) throw new Error(`request ${requestId} changed under its row lock`);
}

export function toFourEyesRequestView(request: LedgerCreditRequestEntity): FourEyesRequestView {
  return {
    id: request.id,
    kind: request.kind,
    amountCents: request.amountCents,
    reference: request.reference,
    requestedBy: request.requestedBy,
    state: request.state,
    confirmedBy: request.confirmedBy,
  };
}

/** A payout request as the confirming admin must see it: the payee, amount and description they would send. */
export interface PayoutRequestDetailView extends FourEyesRequestView {
  pixKey: string;
  pixKeyType: string;
  description: string | null;
  requestedAt: string;
  confirmedAt: string | null;
  /** The payout the confirmation opened. */
  payoutId: string | null;
}

/** The account's payout requests (or the one `requestId`), newest first; scoped to the account in the SQL. */
export async function payoutRequestsOf(em: EntityManager, accountId: string, requestId?: string): Promise<PayoutRequestDetailView[]> {
  const rows = await em.getRepository(LedgerCreditRequestEntity).find({
    where: { accountId, kind: 'payout', ...(requestId ? { id: requestId } : {}) },
    order: { requestedAt: 'DESC', id: 'ASC' },
    take: 200,
  });
  return rows.map((r) => ({
    ...toFourEyesRequestView(r),
    pixKey: r.payout!.pixKey,
    pixKeyType: r.payout!.pixKeyType,
    description: r.payout!.description,
    requestedAt: r.requestedAt.toISOString(),
    confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : null,
    payoutId: r.payoutId,
  }));
}
