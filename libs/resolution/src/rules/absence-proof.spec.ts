import { describe, expect, it } from 'vitest';
import { absenceProvableAfterMs, type AbsenceProofInput } from './absence-proof.js';

const MINUTE = 60_000;

describe('absenceProvableAfterMs', () => {
  const table: Array<[string, AbsenceProofInput, number]> = [
    ['a consistent list: the grace alone', { consistent: true, consistentGraceMs: 5 * MINUTE, capabilities: { consistencyWindowMs: 0 } }, 5 * MINUTE],
    ['a consistent answer from a provider whose search lags: still the grace alone', { consistent: true, consistentGraceMs: 5 * MINUTE, capabilities: { consistencyWindowMs: 60 * MINUTE } }, 5 * MINUTE],
    ['a lagging search whose window outlasts the grace: the window', { consistent: false, consistentGraceMs: 5 * MINUTE, capabilities: { consistencyWindowMs: 60 * MINUTE } }, 60 * MINUTE],
    ['a lagging search whose window is shorter than the grace: the grace', { consistent: false, consistentGraceMs: 5 * MINUTE, capabilities: { consistencyWindowMs: 2 * MINUTE } }, 5 * MINUTE],
    ['no grace and no window: at once', { consistent: false, consistentGraceMs: 0, capabilities: { consistencyWindowMs: 0 } }, 0],
  ];

  it.each(table)('%s', (_name, input, expected) => {
    expect(absenceProvableAfterMs(input)).toBe(expected);
  });
});
