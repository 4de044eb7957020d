import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from '@app/attempts';
import { decideWebhook, type WebhookDisposition } from './webhook-decision.js';
import type { ProviderWebhookEvent } from './provider-webhook-event.js';

const money = { amountCents: 4990, currency: 'usd' };
type Outcome = ProviderWebhookEvent['outcome'];

const rows: Array<[string, Outcome, AttemptStatus, WebhookDisposition]> = [
  ['succeeded on an unknown attempt applies', 'succeeded', 'unknown', { action: 'transition', to: 'succeeded' }],
  ['succeeded on a pending attempt (mid-call) applies', 'succeeded', 'pending', { action: 'transition', to: 'succeeded' }],
  ['failed on an unknown attempt applies', 'failed', 'unknown', { action: 'transition', to: 'failed' }],
  ['processing never moves anything', 'pending', 'unknown', { action: 'none', reason: 'progress_only' }],
  ['processing after succeeded changes nothing', 'pending', 'succeeded', { action: 'none', reason: 'progress_only' }],
  ['succeeded after the resolver already said so', 'succeeded', 'succeeded', { action: 'none', reason: 'already_in_that_state' }],
  ['a late payment_failed after succeeded is flagged', 'failed', 'succeeded', { action: 'flag', reason: 'contradicts_terminal_status' }],
  ['a succeeded after failed is flagged', 'succeeded', 'failed', { action: 'flag', reason: 'contradicts_terminal_status' }],
  ['an event type we do not act on', null, 'unknown', { action: 'none', reason: 'not_actionable' }],
];

describe('decideWebhook', () => {
  it.each(rows)('%s', (_name, outcome, status, expected) => {
    expect(decideWebhook({ outcome, providerChargeId: 'pi_1', ...money }, { status, providerChargeId: 'pi_1' }, money)).toEqual(expected);
  });

  it('flags an event whose amount differs from the charge', () => {
    expect(decideWebhook({ outcome: 'succeeded', amountCents: 1, currency: 'usd', providerChargeId: 'pi_1' }, { status: 'unknown', providerChargeId: null }, money)).toEqual({
      action: 'flag',
      reason: 'amount_mismatch',
    });
  });

  it('flags a success for a second provider charge on one attempt, even when the attempt succeeded', () => {
    expect(decideWebhook({ outcome: 'succeeded', providerChargeId: 'pi_2', ...money }, { status: 'succeeded', providerChargeId: 'pi_1' }, money)).toEqual({
      action: 'flag',
      reason: 'second_provider_charge',
    });
  });

  it('applies a success to an attempt that never learnt its provider id', () => {
    expect(decideWebhook({ outcome: 'succeeded', providerChargeId: 'pi_1', ...money }, { status: 'unknown', providerChargeId: null }, money)).toEqual({
      action: 'transition',
      to: 'succeeded',
    });
  });
});
