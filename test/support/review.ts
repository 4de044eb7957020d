import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ApiTokenService } from '@app/auth';
import type { ChargeView } from '@app/charges';
import { ReviewItemEntity } from '@app/database';
import { openReviewItem } from '@app/review/items';
import { stripeCall } from '../../apps/simulator/src/simulator-test-client.js';
import { createCharge, submit } from './charges.js';
import type { TestStack } from './test-stack.js';

export interface Reviewer {
  name: string;
  headers: { Authorization: string };
}

/** A named reviewer token: names are what the audit trail records, so four-eyes tests need two of them. */
export async function newReviewer(stack: TestStack, name: string, role: 'reviewer' | 'admin' = 'reviewer'): Promise<Reviewer> {
  const unique = `${name}-${randomUUID().slice(0, 8)}`;
  const token = await stack.app.get(ApiTokenService).create(unique, role);
  return { name: unique, headers: { Authorization: `Bearer ${token}` } };
}

export interface ItemUnderReview {
  charge: ChargeView;
  customerId: string;
  attemptId: string;
  itemId: string;
  /** The intent the provider holds for the attempt, if the fault let it be created. */
  intentId: string | undefined;
}

/**
 * An attempt left `unknown` by a real fault at the simulator, handed to a person the way the resolver does
 * when it gives up. `hang_after_create`: the provider has the charge; `500_before_create`: it has nothing.
 */
export async function unknownAttemptInReview(
  stack: TestStack,
  fault: 'hang_after_create' | '500_before_create',
  chargeOverrides: Record<string, unknown> = {},
): Promise<ItemUnderReview> {
  const customerId = `cus_${randomUUID().slice(0, 12)}`;
  stack.sim.setFaults({ rules: [{ fault, match: { customerId } }] });
  const charge = await createCharge(stack, { customerId, ...chargeOverrides });
  const view = await submit(stack, charge.id);
  expect(view.attempts[0].status).toBe('unknown');
  const attemptId = view.attempts[0].id;
  expect(await stack.db.transaction((em) => openReviewItem(em, attemptId, 'tries_exhausted', { lastLookup: { kind: 'error' } }))).toBe(true);
  const item = await stack.db.getRepository(ReviewItemEntity).findOneByOrFail({ attemptId });
  return { charge, customerId, attemptId, itemId: item.id, intentId: stack.sim.intents({ attemptId })[0]?.id };
}

/** The provider's grace for a request it may still be executing has run out (the database clock moves the send back). */
export async function passGrace(stack: TestStack, attemptId: string): Promise<void> {
  await stack.db.query(`UPDATE attempts SET last_sent_at = last_sent_at - interval '1 day', last_send_ended_at = last_send_ended_at - interval '1 day' WHERE id = $1`, [attemptId]);
}

/** A payment intent created straight at the simulator, as if by someone else (or for another amount). */
export async function intentAtProvider(stack: TestStack, fields: { customer: string; attemptId: string; amount: number; currency: string }): Promise<string> {
  const body = new URLSearchParams({
    amount: String(fields.amount),
    currency: fields.currency,
    customer: fields.customer,
    payment_method: 'pm_card_visa',
    confirm: 'true',
    off_session: 'true',
    'automatic_payment_methods[enabled]': 'true',
    'automatic_payment_methods[allow_redirects]': 'never',
    'metadata[attempt_id]': fields.attemptId,
  }).toString();
  const res = await stripeCall(stack.sim, 'POST', '/v1/payment_intents', { body, key: randomUUID() });
  expect(res.status).toBe(200);
  return res.json.id as string;
}
