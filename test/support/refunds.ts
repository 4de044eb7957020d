import { expect } from 'vitest';
import type { RefundView } from '@app/refunds';
import { createCharge, submit } from './charges.js';
import type { TestStack } from './test-stack.js';

/** A charge that succeeded at the simulator, ready to be refunded. */
export async function succeededCharge(stack: TestStack, overrides: Record<string, unknown> = {}) {
  const charge = await createCharge(stack, overrides);
  const view = await submit(stack, charge.id);
  expect(view.status, JSON.stringify(view)).toBe('succeeded');
  return view;
}

export function postRefund(stack: TestStack, chargeId: string, body: Record<string, unknown>, key?: string) {
  const request = stack.http.post(`/charges/${chargeId}/refunds`).set(stack.auth('merchant'));
  return (key ? request.set('Idempotency-Key', key) : request).send(body);
}

export async function refund(stack: TestStack, chargeId: string, amountCents: number): Promise<RefundView> {
  const res = await postRefund(stack, chargeId, { amountCents });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as RefundView;
}

/** A refund as its merchant reads it; a proposal's refund belongs to no merchant, so only an admin reads that. */
export async function getRefund(stack: TestStack, refundId: string, as: 'merchant' | 'admin' = 'merchant'): Promise<RefundView> {
  const res = await stack.http.get(`/refunds/${refundId}`).set(stack.auth(as));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RefundView;
}

export async function committedCents(stack: TestStack, chargeId: string): Promise<number> {
  const [row] = await stack.db.query<Array<{ c: string }>>(`SELECT refund_committed_cents AS c FROM charges WHERE id = $1`, [chargeId]);
  return Number(row.c);
}
