import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from './attempt-status.js';
import { decideProviderFact, failedOnOurJudgement, type AttemptRecord, type FactDisposition, type ProviderFact } from './provider-fact.js';

const money = { amountCents: 4990, currency: 'usd' };
const fact = (outcome: ProviderFact['outcome'], providerChargeId: string | null = 'pi_1'): ProviderFact => ({ outcome, providerChargeId, ...money });
const attempt = (status: AttemptStatus, providerChargeId: string | null = 'pi_1', resolvedBy: string | null = null): AttemptRecord => ({ status, providerChargeId, resolvedBy });

const rows: Array<[string, ProviderFact, AttemptRecord, FactDisposition]> = [
  ['succeeded on an unknown attempt applies', fact('succeeded'), attempt('unknown'), { action: 'transition', to: 'succeeded' }],
  ['succeeded on a pending attempt (mid-call) applies', fact('succeeded'), attempt('pending'), { action: 'transition', to: 'succeeded' }],
  ['failed on an unknown attempt applies', fact('failed'), attempt('unknown'), { action: 'transition', to: 'failed' }],
  ['succeeded on an attempt that never learnt its id applies', fact('succeeded'), attempt('unknown', null), { action: 'transition', to: 'succeeded' }],
  ['processing never moves an open attempt', fact('pending'), attempt('unknown'), { action: 'none', reason: 'progress_only' }],
  ['processing after succeeded changes nothing', fact('pending'), attempt('succeeded'), { action: 'none', reason: 'progress_only' }],
  ['processing after a decline changes nothing', fact('pending'), attempt('failed', 'pi_1', 'submit'), { action: 'none', reason: 'progress_only' }],
  ['an intent seen for an attempt failed as not found goes to a person', fact('pending'), attempt('failed', null, 'resolver'), { action: 'review', reason: 'provider_charge_after_not_found' }],
  ['... also when a person failed it', fact('pending'), attempt('failed', null, 'reviewer'), { action: 'review', reason: 'provider_charge_after_not_found' }],
  ['succeeded after the resolver already said so', fact('succeeded'), attempt('succeeded'), { action: 'none', reason: 'already_in_that_state' }],
  ['failed after failed', fact('failed'), attempt('failed'), { action: 'none', reason: 'already_in_that_state' }],
  ['a late payment_failed after succeeded goes to a person', fact('failed'), attempt('succeeded'), { action: 'review', reason: 'provider_failure_after_success' }],
  ['a success after we failed the attempt goes to a person', fact('succeeded'), attempt('failed'), { action: 'review', reason: 'provider_success_after_failure' }],
  ['a success after a not-found failure goes to a person', fact('succeeded'), attempt('failed', null, 'resolver'), { action: 'review', reason: 'provider_success_after_failure' }],
  ['a second provider charge that succeeded is a duplicate', fact('succeeded', 'pi_2'), attempt('succeeded'), { action: 'review', reason: 'duplicate_provider_charges' }],
  ['... even while the attempt is open', fact('succeeded', 'pi_2'), attempt('unknown'), { action: 'review', reason: 'duplicate_provider_charges' }],
  ['a failure of another provider charge does not fail the attempt', fact('failed', 'pi_2'), attempt('unknown'), { action: 'none', reason: 'other_charge_not_successful' }],
  ['an event type we do not act on', fact(null), attempt('unknown'), { action: 'none', reason: 'not_actionable' }],
  ['a different amount goes to a person', { ...fact('succeeded'), amountCents: 1 }, attempt('unknown'), { action: 'review', reason: 'amount_mismatch' }],
  ['a different currency goes to a person', { ...fact('succeeded'), currency: 'eur' }, attempt('unknown'), { action: 'review', reason: 'amount_mismatch' }],
  ['currency compares case-insensitively', { ...fact('succeeded'), currency: 'USD' }, attempt('unknown'), { action: 'transition', to: 'succeeded' }],
];

describe('decideProviderFact', () => {
  it.each(rows)('%s', (_name, f, a, expected) => {
    expect(decideProviderFact(f, a, money)).toEqual(expected);
  });

  it('never moves a terminal attempt, and every provider success is applied or goes to a person', () => {
    const statuses = fc.constantFrom<AttemptStatus>('pending', 'unknown', 'succeeded', 'failed');
    const outcomes = fc.constantFrom<ProviderFact['outcome']>('succeeded', 'failed', 'pending', null);
    const ids = fc.constantFrom<string | null>('pi_1', 'pi_2', null);
    const by = fc.constantFrom<string | null>('submit', 'resolver', 'reviewer', 'webhook', null);
    fc.assert(
      fc.property(statuses, outcomes, ids, ids, by, fc.boolean(), (status, outcome, factId, attemptId, resolvedBy, sameMoney) => {
        const f: ProviderFact = { outcome, providerChargeId: factId, amountCents: sameMoney ? 4990 : 1, currency: 'usd' };
        const d = decideProviderFact(f, { status, providerChargeId: attemptId, resolvedBy }, money);
        if (status === 'succeeded' || status === 'failed') expect(d.action).not.toBe('transition');
        if (outcome === 'succeeded') {
          const applied = d.action === 'transition' && d.to === 'succeeded';
          const agreed = d.action === 'none' && status === 'succeeded' && (factId === null || attemptId === null || factId === attemptId);
          expect(applied || agreed || d.action === 'review').toBe(true);
        }
      }),
    );
  });
});

describe('failedOnOurJudgement', () => {
  it.each([
    [attempt('failed', null, 'resolver'), true],
    [attempt('failed', null, 'reviewer'), true],
    [attempt('failed', null, 'submit'), false],
    [attempt('failed', 'pi_1', 'resolver'), true],
    [attempt('unknown', null, null), false],
  ])('%o → %s', (a, expected) => {
    expect(failedOnOurJudgement(a)).toBe(expected);
  });
});

/**
 * Random interleavings of everything that can touch one attempt: the sender's result (possibly late), the
 * sweeper, the resolver's lookups and not-found failure, webhooks and the re-check, modelled with the real
 * rules (decideProviderFact, canTransition). Whatever the order, a success the provider reported is the
 * attempt's `succeeded` with that provider id, or an open review item.
 */
describe('any interleaving of sender, sweeper, resolver and webhooks', () => {
  type Step =
    | { kind: 'fact'; outcome: 'succeeded' | 'failed' | 'pending'; id: 'pi_1' | 'pi_2' }
    | { kind: 'sweep' }
    | { kind: 'fail_not_found' }
    | { kind: 'unknown_result' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('fact' as const), outcome: fc.constantFrom('succeeded' as const, 'failed' as const, 'pending' as const), id: fc.constantFrom('pi_1' as const, 'pi_2' as const) }),
    fc.constant({ kind: 'sweep' as const }),
    fc.constant({ kind: 'fail_not_found' as const }),
    fc.constant({ kind: 'unknown_result' as const }),
  );

  it('leaves every reported provider success recorded or in front of a person', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const attempt: AttemptRecord = { status: 'pending', providerChargeId: null, resolvedBy: null };
        let review = false;
        const successes = new Set<string>();
        for (const s of steps) {
          if (s.kind === 'sweep' || s.kind === 'unknown_result') {
            if (attempt.status === 'pending') attempt.status = 'unknown';
          } else if (s.kind === 'fail_not_found') {
            // The resolver may fail an unknown attempt on a stale lookup, even after a webhook taught it an id.
            if (attempt.status === 'unknown') Object.assign(attempt, { status: 'failed', resolvedBy: 'resolver' });
          } else {
            if (s.outcome === 'succeeded') successes.add(s.id);
            const d = decideProviderFact({ outcome: s.outcome, providerChargeId: s.id, ...money }, attempt, money);
            if (d.action === 'transition') Object.assign(attempt, { status: d.to, providerChargeId: s.id, resolvedBy: 'webhook' });
            else if (d.action === 'review') review = true;
            else if (s.outcome === 'pending' && attempt.providerChargeId === null && attempt.status !== 'failed') attempt.providerChargeId = s.id;
          }
        }
        for (const id of successes) {
          const recorded = attempt.status === 'succeeded' && attempt.providerChargeId === id;
          expect(recorded || review, `success of ${id} after ${JSON.stringify(steps)}`).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

