import { describe, expect, it } from 'vitest';
import { parseOlderThan } from './older-than.js';

describe('parseOlderThan', () => {
  it.each([
    ['90s', { kind: 'age', ms: 90_000 }],
    ['15m', { kind: 'age', ms: 900_000 }],
    ['4h', { kind: 'age', ms: 14_400_000 }],
    ['2d', { kind: 'age', ms: 172_800_000 }],
    ['2026-12-01T10:00:00Z', { kind: 'before', at: new Date('2026-12-01T10:00:00Z') }],
    ['2026-12-01T10:00:00.250-03:00', { kind: 'before', at: new Date('2026-12-01T13:00:00.250Z') }],
    ['', null],
    ['15', null],
    ['-5m', null],
    ['1w', null],
    ['2026-12-01', null],
    ['yesterday', null],
  ] as const)('%j → %j', (text, expected) => {
    expect(parseOlderThan(text)).toEqual(expected);
  });
});
