import { describe, expect, it } from 'vitest';
import { dayIn, noonOf, wallClockIn } from './asaas-days.js';

describe('Asaas days', () => {
  it('reads the calendar day of an instant in the business time zone', () => {
    expect(dayIn('America/Sao_Paulo', new Date('2026-11-21T02:00:00Z'))).toBe('2026-11-20');
    expect(dayIn('UTC', new Date('2026-11-21T02:00:00Z'))).toBe('2026-11-21');
  });

  it.each([
    ['America/Sao_Paulo', '2026-11-20T15:00:00.000Z'],
    ['UTC', '2026-11-20T12:00:00.000Z'],
    ['Asia/Tokyo', '2026-11-20T03:00:00.000Z'],
    ['Pacific/Kiritimati', '2026-11-19T22:00:00.000Z'],
  ])('places noon of a day in %s at %s, inside that local day', (zone, instant) => {
    expect(noonOf('2026-11-20', zone).toISOString()).toBe(instant);
    expect(dayIn(zone, noonOf('2026-11-20', zone))).toBe('2026-11-20');
  });

  it.each([
    ['2022-02-21 10:28:40', 'America/Sao_Paulo', '2022-02-21T13:28:40.000Z'],
    ['2022-02-21 23:59:59', 'UTC', '2022-02-21T23:59:59.000Z'],
    ['2022-02-21', 'UTC', null],
    ['21/02/2022 10:28:40', 'UTC', null],
  ])('reads the wall-clock time %s in %s as %s', (dateTime, zone, instant) => {
    expect(wallClockIn(dateTime, zone)?.toISOString() ?? null).toBe(instant);
  });
});
