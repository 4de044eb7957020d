import { describe, expect, it } from 'vitest';
import { InvalidBackoffScheduleError } from './attempt-rules.errors.js';
import { delayForTry, parseBackoffList } from './backoff-schedule.js';

describe('parseBackoffList', () => {
  const valid: [string, number[]][] = [
    ['30000', [30_000]],
    ['30000,60000,120000', [30_000, 60_000, 120_000]],
    [' 1000 , 5000 ', [1000, 5000]],
    ['2147483647', [2_147_483_647]],
  ];

  it.each(valid)('reads "%s" as %j', (raw, expected) => {
    expect(parseBackoffList(raw, 'RESOLUTION_BACKOFF_MS')).toEqual(expected);
  });

  const invalid: [string, string][] = [
    ['an empty value', ''],
    ['only spaces', '   '],
    ['an empty entry', '1000,,5000'],
    ['a trailing comma', '1000,'],
    ['zero', '0'],
    ['a negative delay', '-1000'],
    ['a fraction', '1.5'],
    ['an exponent', '1e3'],
    ['a unit suffix', '30s'],
    ['words', 'fast'],
    ['a delay beyond setTimeout', '2147483648'],
  ];

  it.each(invalid)('rejects %s, naming the setting', (_name, raw) => {
    let thrown: unknown;
    try {
      parseBackoffList(raw, 'RESOLUTION_BACKOFF_MS');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidBackoffScheduleError);
    expect(thrown).toMatchObject({ code: 'invalid_backoff_schedule', settingName: 'RESOLUTION_BACKOFF_MS' });
    expect((thrown as Error).message).toContain('RESOLUTION_BACKOFF_MS');
  });
});

describe('delayForTry', () => {
  const schedule = [30_000, 60_000, 120_000];
  const table: [number, number][] = [
    [0, 30_000],
    [1, 60_000],
    [2, 120_000],
    [3, 120_000],
    [50, 120_000],
  ];

  it.each(table)('waits before retry index %i: %i ms (the last delay repeats)', (tryIndex, expected) => {
    expect(delayForTry(schedule, tryIndex)).toBe(expected);
  });

  it.each([-1, 1.5, Number.NaN])('refuses the try index %d', (tryIndex) => {
    expect(() => delayForTry(schedule, tryIndex)).toThrow(RangeError);
  });

  it('refuses an empty schedule', () => {
    expect(() => delayForTry([], 0)).toThrow(RangeError);
  });
});
