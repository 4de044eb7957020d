import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canTransition, mayOpenNewAttempt } from './attempt-state-machine.js';
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

const statusArb = fc.constantFrom(...ATTEMPT_STATUSES);

describe('attempt state machine properties', () => {
  it('never leaves a terminal status, whatever moves are asked and in whatever order', () => {
    fc.assert(
      fc.property(fc.array(statusArb, { maxLength: 40 }), (asked) => {
        let status: AttemptStatus = 'pending';
        let terminalAt: AttemptStatus | null = null;
        for (const to of asked) {
          if (canTransition(status, to)) status = to;
          if (terminalAt !== null) expect(status).toBe(terminalAt);
          if (isTerminal(status)) terminalAt = status;
        }
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

class RequestTransition implements fc.Command<ChargeModel, ChargeAttemptsTable> {
  constructor(
    readonly pick: number,
    readonly to: AttemptStatus,
    /** Another actor read the row earlier: its update is guarded by what it saw, maybe stale. */
    readonly staleRead: AttemptStatus | null,
  ) {}
  check = (model: Readonly<ChargeModel>): boolean => model.statuses.length > 0;
  run(model: ChargeModel, real: ChargeAttemptsTable): void {
    const index = this.pick % model.statuses.length;
    const seen = this.staleRead ?? model.statuses[index];
    if (canTransition(seen, this.to) && real.conditionalUpdate(index, seen, this.to)) model.statuses[index] = this.to;
    assertInvariants(model, real);
  }
  toString = (): string => `move(${this.pick} → ${this.to}, stale=${this.staleRead})`;
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
        .tuple(fc.nat(), statusArb, fc.option(statusArb))
        .map(([pick, to, stale]) => new RequestTransition(pick, to, stale)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { statuses: [] }, real: new ChargeAttemptsTable() }), cmds);
      }),
      { numRuns: 300 },
    );
  });
});
