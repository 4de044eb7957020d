import { expect } from 'vitest';
import type { ChargeView } from '@app/charges';
import { AttemptTransitionEntity } from '@app/database';
import { newChargeBody, type TestStack } from './test-stack.js';

/** Creates a charge over HTTP and returns its view. */
export async function createCharge(stack: TestStack, overrides: Record<string, unknown> = {}): Promise<ChargeView> {
  const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ChargeView;
}

export async function submit(stack: TestStack, chargeId: string): Promise<ChargeView> {
  const res = await stack.http.post(`/charges/${chargeId}/submit`).set(stack.auth('merchant'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ChargeView;
}

export async function getCharge(stack: TestStack, chargeId: string): Promise<ChargeView> {
  const res = await stack.http.get(`/charges/${chargeId}`).set(stack.auth('merchant'));
  expect(res.status).toBe(200);
  return res.body as ChargeView;
}

/** The audit trail of one attempt, oldest first, as `from→to:cause` strings. */
export async function transitionsOf(stack: TestStack, attemptId: string): Promise<string[]> {
  const rows = await stack.db.getRepository(AttemptTransitionEntity).find({ where: { attemptId }, order: { id: 'ASC' } });
  return rows.map((r) => `${r.fromStatus ?? 'new'}→${r.toStatus}:${r.cause}`);
}

/**
 * A submit of a charge the provider already captured through an attempt we had failed (a late capture): refused
 * with 409 naming that attempt, and nothing is opened or sent.
 */
export async function submitRefusedAsCaptured(stack: TestStack, chargeId: string, attemptId: string): Promise<void> {
  const res = await stack.http.post(`/charges/${chargeId}/submit`).set(stack.auth('merchant'));
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body).toMatchObject({ code: 'charge_already_captured', details: { chargeId, attemptId } });
}
