import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';

const columns = [
  { header: 'id', value: (r: { id: string | null; cents: number }) => r.id },
  { header: 'amount_cents', value: (r: { id: string | null; cents: number }) => r.cents },
];

describe('toCsv', () => {
  it.each([
    ['plain text as it is', 'pi_123', 'pi_123'],
    ['a comma quoted', 'a,b', '"a,b"'],
    ['quotes doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break quoted', 'one\ntwo', '"one\ntwo"'],
    ['a carriage return quoted, and disarmed at the start', '\rx', `"'\rx"`],
    ['a formula disarmed', '=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['a leading minus disarmed', '-1+2', "'-1+2"],
    ['an at sign disarmed', '@SUM(A1)', "'@SUM(A1)"],
    ['null as an empty cell', null, ''],
  ])('writes %s', (_, id, written) => {
    expect(toCsv(columns, [{ id, cents: 1 }])).toBe(`id,amount_cents\r\n${written},1\r\n`);
  });

  it('writes money as integer minor units, negative ones too, and dates in ISO 8601', () => {
    expect(toCsv([{ header: 'at', value: (r: { at: Date; cents: number }) => r.at }, { header: 'cents', value: (r) => r.cents }], [{ at: new Date('2026-12-01T03:00:00Z'), cents: -10050 }])).toBe(
      'at,cents\r\n2026-12-01T03:00:00.000Z,-10050\r\n',
    );
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(columns, [])).toBe('id,amount_cents\r\n');
  });
});
