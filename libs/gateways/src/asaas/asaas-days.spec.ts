import { describe, expect, it } from 'vitest';
import { dayIn, noonOf } from './asaas-days.js';

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
});
