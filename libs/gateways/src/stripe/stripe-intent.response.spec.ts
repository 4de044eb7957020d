import { describe, expect, it } from 'vitest';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { readIntent, redactIntentSecrets, toCreateChargeResult, toProviderCharge } from './stripe-intent.response.js';

const intent = {
  id: 'pi_1',
  object: 'payment_intent',
  amount: 500,
  currency: 'usd',
  status: 'succeeded',
  client_secret: 'pi_1_secret_abc',
  last_payment_error: null,
  metadata: { attempt_id: 'att_1', charge_id: 'chg_1' },
};

function response(status: number, body: unknown, headers: Record<string, string> = {}): ProviderHttpResult {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { kind: 'response', status, headers, body: text, durationMs: 7 };
}

describe('toCreateChargeResult', () => {
  it('reads the intent id and maps its status on a 200', () => {
    expect(toCreateChargeResult(response(200, intent))).toMatchObject({
      kind: 'response',
      httpStatus: 200,
      replayed: false,
      providerChargeId: 'pi_1',
      providerOutcome: 'succeeded',
      error: null,
    });
  });

  it('fails an intent an off-session confirm left requires_action, with authentication_required as its reason', () => {
    expect(toCreateChargeResult(response(200, { ...intent, status: 'requires_action' }))).toMatchObject({
      httpStatus: 200,
      providerChargeId: 'pi_1',
      providerOutcome: 'failed',
      error: { code: 'authentication_required' },
    });
  });

  it('reads the declined intent from error.payment_intent on a 402', () => {
    const declined = {
      error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        payment_intent: { ...intent, status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } },
      },
    };
    expect(toCreateChargeResult(response(402, declined))).toMatchObject({
      httpStatus: 402,
      providerChargeId: 'pi_1',
      providerOutcome: 'failed',
      error: { type: 'card_error', code: 'card_declined', declineCode: 'insufficient_funds' },
    });
  });

  it('keeps error fields and no intent for an error without one', () => {
    const result = toCreateChargeResult(response(500, { error: { type: 'api_error', message: 'boom' } }));
    expect(result).toMatchObject({
      httpStatus: 500,
      providerChargeId: null,
      providerOutcome: null,
      error: { type: 'api_error', message: 'boom' },
    });
  });

  it('reports a replay from the Idempotent-Replayed header', () => {
    expect(toCreateChargeResult(response(200, intent, { 'idempotent-replayed': 'true' }))).toMatchObject({
      replayed: true,
    });
  });

  it('keeps a non-JSON body as truncated text with every parsed field null', () => {
    const html = `<html>${'x'.repeat(10_000)}</html>`;
    const result = toCreateChargeResult(response(502, html));
    expect(result).toMatchObject({ httpStatus: 502, providerChargeId: null, providerOutcome: null, error: null });
    expect(result.kind === 'response' && (result.body as string).length).toBe(4096);
  });

  it('drops the client_secret from the kept body', () => {
    const result = toCreateChargeResult(response(200, intent));
    expect(JSON.stringify(result)).not.toContain('secret_abc');
  });

  it('passes transport failures through unchanged', () => {
    const failure: ProviderHttpResult = { kind: 'no_response', errorCode: 'ECONNRESET', message: 'x', durationMs: 3 };
    expect(toCreateChargeResult(failure)).toEqual(failure);
  });
});

describe('readIntent and toProviderCharge', () => {
  it('ignores objects that are not payment intents', () => {
    expect(readIntent({ id: 'ch_1', object: 'charge' })).toBeNull();
    expect(readIntent('pi_1')).toBeNull();
  });

  it('builds a provider charge with our attempt reference and no client secret', () => {
    const charge = toProviderCharge(readIntent(intent)!, intent);
    expect(charge).toMatchObject({ providerChargeId: 'pi_1', outcome: 'succeeded', amountCents: 500, attemptId: 'att_1' });
    expect(JSON.stringify(charge.raw)).not.toContain('client_secret');
  });

  it('treats an unrecognised status as still pending rather than resolved', () => {
    expect(toProviderCharge(readIntent({ ...intent, status: 'mystery' })!, intent).outcome).toBe('pending');
  });

  it('redacts nested client secrets without touching the input', () => {
    const body = { error: { payment_intent: { ...intent } } };
    expect(JSON.stringify(redactIntentSecrets(body))).not.toContain('client_secret');
    expect(body.error.payment_intent.client_secret).toBe('pi_1_secret_abc');
  });
});
