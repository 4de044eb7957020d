import { describe, expect, it } from 'vitest';
import { parseDelayList } from './delay-list.js';

describe('parseDelayList', () => {
  const valid: [string, number[]][] = [
    ['30000', [30_000]],
    ['30000,60000,120000', [30_000, 60_000, 120_000]],
    [' 1000 , 5000 ', [1000, 5000]],
    ['2147483647', [2_147_483_647]],
  ];

  it.each(valid)('reads "%s" as %j', (raw, expected) => {
    expect(parseDelayList(raw)).toEqual({ delays: expected });
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

  it.each(invalid)('rejects %s with the reason', (_name, raw) => {
    expect(parseDelayList(raw)).toEqual({ problem: expect.stringMatching(/is empty|is not a whole number/) });
  });
});
