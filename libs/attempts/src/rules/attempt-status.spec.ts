import { describe, expect, it } from 'vitest';
import { ATTEMPT_STATUSES, OPEN_ATTEMPT_STATUSES, isOpen, isTerminal, type AttemptStatus } from './attempt-status.js';

describe('attempt status', () => {
  const table: { status: AttemptStatus; open: boolean; terminal: boolean }[] = [
    { status: 'pending', open: true, terminal: false },
    { status: 'unknown', open: true, terminal: false },
    { status: 'succeeded', open: false, terminal: true },
    { status: 'failed', open: false, terminal: true },
  ];

  it.each(table)('$status is open=$open and terminal=$terminal', ({ status, open, terminal }) => {
    expect(isOpen(status)).toBe(open);
    expect(isTerminal(status)).toBe(terminal);
  });

  it('classifies every status as exactly one of open or terminal', () => {
    expect(table.map((row) => row.status).sort()).toEqual([...ATTEMPT_STATUSES].sort());
    for (const status of ATTEMPT_STATUSES) expect(isOpen(status)).toBe(!isTerminal(status));
  });

  it('lists the same open statuses as the partial unique index', () => {
    expect([...OPEN_ATTEMPT_STATUSES].sort()).toEqual(['pending', 'unknown']);
  });
});
