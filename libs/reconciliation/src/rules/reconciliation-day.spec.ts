import { describe, expect, it } from 'vitest';
import { addDays, dayOf, dayWindow, isCalendarDay, isDayClosed, previousDay } from './reconciliation-day.js';

describe('reconciliation days are calendar days of RECONCILIATION_TZ', () => {
  it.each([
    ['2026-12-01', 'America/Sao_Paulo', '2026-12-01T03:00:00.000Z', '2026-12-02T03:00:00.000Z'],
    ['2026-12-01', 'UTC', '2026-12-01T00:00:00.000Z', '2026-12-02T00:00:00.000Z'],
    ['2026-12-31', 'Asia/Tokyo', '2026-12-30T15:00:00.000Z', '2026-12-31T15:00:00.000Z'],
    // New York's spring-forward day is 23 hours long, its fall-back day 25.
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'],
  ])('%s in %s is [%s, %s)', (day, zone, start, end) => {
    const window = dayWindow(day, zone);
    expect(window.start.toISOString()).toBe(start);
    expect(window.end.toISOString()).toBe(end);
  });

  it.each([
    ['2026-12-02T02:30:00Z', 'America/Sao_Paulo', '2026-11-30'],
    ['2026-12-02T05:00:00Z', 'America/Sao_Paulo', '2026-12-01'],
    ['2026-03-01T12:00:00Z', 'UTC', '2026-02-28'],
    ['2028-03-01T12:00:00Z', 'UTC', '2028-02-29'],
  ])('the nightly job at %s in %s reconciles %s', (now, zone, day) => {
    expect(previousDay(new Date(now), zone)).toBe(day);
  });

  it.each([
    ['2026-11-30', '2026-12-01T12:00:00Z', 'UTC', true],
    ['2026-12-01', '2026-12-01T12:00:00Z', 'UTC', false],
    ['2026-12-02', '2026-12-01T12:00:00Z', 'UTC', false],
    ['9999-12-31', '2026-12-01T12:00:00Z', 'UTC', false],
    // 01:00 UTC on the 2nd is still the 1st in São Paulo (UTC-3): the 1st has not ended there, though it has in UTC.
    ['2026-12-01', '2026-12-02T01:00:00Z', 'America/Sao_Paulo', false],
    ['2026-12-01', '2026-12-02T03:00:00Z', 'America/Sao_Paulo', true],
  ])('%s has ended at %s in %s: %s', (day, now, zone, closed) => {
    expect(isDayClosed(day, new Date(now), zone)).toBe(closed);
  });

  it.each([['2026-12-01', true], ['2026-02-29', false], ['2028-02-29', true], ['2026-13-01', false], ['2026-1-01', false], ['yesterday', false]])(
    '%s is a calendar day: %s',
    (day, ok) => expect(isCalendarDay(day)).toBe(ok),
  );

  it('adds days across months and years, and names the day of an instant', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(dayOf(new Date('2026-12-02T01:00:00Z'), 'America/Sao_Paulo')).toBe('2026-12-01');
  });
});
