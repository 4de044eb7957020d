import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { LedgerAccountEntity, LedgerEntryEntity } from '@app/database';
import { newReviewer } from './review.js';
import type { TestStack } from './test-stack.js';

/** The stack's merchant token's name: accounts are created for the merchant it belongs to. */
export function merchantTokenName(stack: TestStack): string {
  return stack.tokenNames.merchant;
}

/**
 * A brl account owned by the stack's merchant (or `owner`), funded with `fundedCents` by an admin credit; a credit
 * at or above the four-eyes amount is confirmed by a second admin, as it must be.
 */
export async function fundedAccount(stack: TestStack, fundedCents: number, owner = merchantTokenName(stack)): Promise<string> {
  const created = await stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: owner, currency: 'brl' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  if (fundedCents > 0) {
    const credit = await stack.http
      .post(`/accounts/${id}/credits`)
      .set(stack.auth('admin'))
      .set('Idempotency-Key', randomUUID())
      .send({ amountCents: fundedCents, reference: `fund-${randomUUID()}` });
    if (credit.status === 202) {
      const second = await newReviewer(stack, 'second-admin', 'admin');
      const confirmed = await stack.http.post(`/accounts/${id}/credits/${credit.body.request.id}/confirm`).set(second.headers).send({ reason: 'funding a test account' });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    } else {
      expect(credit.status).toBe(201);
    }
  }
  return id;
}

export function payoutBody(amountCents: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { amountCents, pixKey: 'payee@example.com.br', pixKeyType: 'email', description: 'payout test', ...overrides };
}

export async function balanceOf(stack: TestStack, accountId: string): Promise<{ availableCents: number; reservedCents: number }> {
  const account = await stack.db.getRepository(LedgerAccountEntity).findOneByOrFail({ id: accountId });
  return { availableCents: account.availableCents, reservedCents: account.reservedCents };
}

/** Ledger entries of one reservation (reference = the payout attempt id), by kind. */
export async function entriesOf(stack: TestStack, accountId: string, attemptId: string): Promise<string[]> {
  const entries = await stack.db.getRepository(LedgerEntryEntity).find({ where: { accountId, reference: attemptId }, order: { id: 'ASC' } });
  return entries.map((e) => e.kind);
}

export async function attemptStatus(stack: TestStack, attemptId: string): Promise<string> {
  const [row] = await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attemptId]);
  return row.status;
}
