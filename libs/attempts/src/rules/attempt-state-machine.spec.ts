import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canTransition, mayOpenNewAttempt, transitionFor, type AttemptEvent } from './attempt-state-machine.js';
import { ATTEMPT_STATUSES, isOpen, isTerminal, type AttemptStatus } from './attempt-status.js';

describe('canTransition', () => {
  // DESIGN.md section 2: every pair of statuses, allowed or not.
  const table: [AttemptStatus, AttemptStatus, boolean][] = [
    ['pending', 'pending', false],
    ['pending', 'succeeded', true],
    ['pending', 'failed', true],
    ['pending', 'unknown', true],
    ['unknown', 'pending', false],
    ['unknown', 'succeeded', true],
    ['unknown', 'failed', true],
    ['unknown', 'unknown', false],
    ['succeeded', 'pending', false],
    ['succeeded', 'succeeded', false],
    ['succeeded', 'failed', false],
    ['succeeded', 'unknown', false],
    ['failed', 'pending', false],
    ['failed', 'succeeded', false],
    ['failed', 'failed', false],
    ['failed', 'unknown', false],
  ];

  it.each(table)('%s -> %s is allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });
});

describe('transitionFor', () => {
  const succeededByReviewer: AttemptEvent = { type: 'reviewer_decided', outcome: 'succeeded' };
  const failedByReviewer: AttemptEvent = { type: 'reviewer_decided', outcome: 'failed' };
  // Columns: what the event does to a pending, unknown, succeeded and failed attempt.
  const table: [string, AttemptEvent, (AttemptStatus | null)[]][] = [
    ['provider says succeeded', { type: 'provider_succeeded' }, ['succeeded', 'succeeded', null, null]],
    ['provider says failed', { type: 'provider_failed' }, ['failed', 'failed', null, null]],
    ['provider says still pending', { type: 'provider_pending' }, [null, null, null, null]],
    ['timeout, 5xx or 409', { type: 'outcome_unknown' }, ['unknown', null, null, null]],
    ['sender lease expired', { type: 'lease_expired' }, ['unknown', null, null, null]],
    ['not found after the window', { type: 'not_found_after_window' }, [null, 'failed', null, null]],
    ['reviewer decides succeeded', succeededByReviewer, [null, 'succeeded', null, null]],
    ['reviewer decides failed', failedByReviewer, [null, 'failed', null, null]],
  ];
  const rows = table.flatMap(([name, event, targets]) =>
    (['pending', 'unknown', 'succeeded', 'failed'] as const).map((from, i) => ({ name, event, from, to: targets[i] })),
  );

  it.each(rows)('$name moves a $from attempt to $to', ({ event, from, to }) => {
    expect(transitionFor(from, event)).toBe(to);
  });
});

describe('mayOpenNewAttempt', () => {
  const table: [string, AttemptStatus[], boolean][] = [
    ['no attempt yet', [], true],
    ['the only attempt failed', ['failed'], true],
    ['every attempt failed', ['failed', 'failed', 'failed'], true],
    ['an attempt is pending', ['failed', 'pending'], false],
    ['an attempt is unknown: it may have taken the money', ['failed', 'unknown'], false],
    ['an attempt succeeded', ['failed', 'succeeded'], false],
    ['an earlier attempt succeeded (defensive)', ['succeeded', 'failed'], false],
  ];

  it.each(table)('when %s: %s', (_name, statuses, allowed) => {
    expect(mayOpenNewAttempt(statuses)).toBe(allowed);
  });
});

const eventArb: fc.Arbitrary<AttemptEvent> = fc.oneof(
  fc.constantFrom<AttemptEvent>(
    { type: 'provider_succeeded' },
    { type: 'provider_failed' },
    { type: 'provider_pending' },
    { type: 'outcome_unknown' },
    { type: 'lease_expired' },
    { type: 'not_found_after_window' },
  ),
  fc.constantFrom('succeeded' as const, 'failed' as const).map((outcome): AttemptEvent => ({ type: 'reviewer_decided', outcome })),
);

describe('attempt state machine properties', () => {
  it('never leaves a terminal status, whatever events arrive and in whatever order', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        let status: AttemptStatus = 'pending';
        let terminalAt: AttemptStatus | null = null;
        for (const event of events) {
          const next = transitionFor(status, event);
          if (next !== null) {
            expect(canTransition(status, next)).toBe(true);
            status = next;
          }
          if (terminalAt !== null) expect(status).toBe(terminalAt);
          if (isTerminal(status)) terminalAt = status;
        }
      }),
    );
  });

  it('only ever produces transitions the table allows, from any status', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATUSES), eventArb, (from, event) => {
        const to = transitionFor(from, event);
        if (to !== null) expect(canTransition(from, to)).toBe(true);
      }),
    );
  });
});

/**
 * Model-based check of one charge over time. The "real" side imitates the database: conditional
 * updates (`WHERE status = $expected`) and a guard standing in for the partial unique index that
 * counts how often it would have fired. Following the rules, it must never fire.
 */
class ChargeAttemptsTable {
  readonly statuses: AttemptStatus[] = [];
  uniqueIndexViolations = 0;

  openOrReuse(): void {
    if (!mayOpenNewAttempt(this.statuses)) return; // reuse the open attempt, or the charge is done
    if (this.statuses.some(isOpen)) this.uniqueIndexViolations += 1;
    this.statuses.push('pending');
  }

  conditionalUpdate(index: number, expected: AttemptStatus, to: AttemptStatus): boolean {
    if (this.statuses[index] !== expected) return false;
    this.statuses[index] = to;
    return true;
  }
}

interface ChargeModel {
  statuses: AttemptStatus[];
}

class OpenOrReuseAttempt implements fc.Command<ChargeModel, ChargeAttemptsTable> {
  check = (): boolean => true;
  run(model: ChargeModel, real: ChargeAttemptsTable): void {
    real.openOrReuse();
    if (mayOpenNewAttempt(model.statuses)) model.statuses.push('pending');
    assertInvariants(model, real);
  }
  toString = (): string => 'openOrReuse';
}

class DeliverEvent implements fc.Command<ChargeModel, ChargeAttemptsTable> {
  constructor(
    readonly pick: number,
    readonly event: AttemptEvent,
    /** Another actor read the row earlier: its update is guarded by what it saw, maybe stale. */
    readonly staleRead: AttemptStatus | null,
  ) {}
  check = (model: Readonly<ChargeModel>): boolean => model.statuses.length > 0;
  run(model: ChargeModel, real: ChargeAttemptsTable): void {
    const index = this.pick % model.statuses.length;
    const seen = this.staleRead ?? model.statuses[index];
    const to = transitionFor(seen, this.event);
    if (to !== null && real.conditionalUpdate(index, seen, to)) model.statuses[index] = to;
    assertInvariants(model, real);
  }
  toString = (): string => `deliver(${this.pick}, ${JSON.stringify(this.event)}, stale=${this.staleRead})`;
}

function assertInvariants(model: ChargeModel, real: ChargeAttemptsTable): void {
  expect(real.statuses).toEqual(model.statuses);
  expect(real.uniqueIndexViolations).toBe(0);
  expect(real.statuses.filter(isOpen).length).toBeLessThanOrEqual(1);
  expect(real.statuses.filter((status) => status === 'succeeded').length).toBeLessThanOrEqual(1);
}

describe('a charge with many attempts', () => {
  it('never has more than one open attempt nor more than one succeeded attempt', () => {
    const commands = [
      fc.constant(new OpenOrReuseAttempt()),
      fc
        .tuple(fc.nat(), eventArb, fc.option(fc.constantFrom(...ATTEMPT_STATUSES)))
        .map(([pick, event, stale]) => new DeliverEvent(pick, event, stale)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { statuses: [] }, real: new ChargeAttemptsTable() }), cmds);
      }),
      { numRuns: 300 },
    );
  });
});
