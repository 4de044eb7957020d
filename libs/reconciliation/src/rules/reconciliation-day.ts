import { addDays, dayOf, isCalendarDay } from '@app/common';

// The calendar-day helpers live in common, shared with the gateways' date-speaking APIs and the api's checks; reconciliation's callers keep their names.
export { addDays, dayOf, isCalendarDay };

/**
 * A reconciliation day is a calendar day in the business's time zone (RECONCILIATION_TZ), not in UTC: in
 * São Paulo the day 2026-12-01 runs from 03:00 UTC on the 1st to 03:00 UTC on the 2nd.
 */
export interface DayWindow {
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
}

export function dayWindow(day: string, timeZone: string): DayWindow {
  if (!isCalendarDay(day)) throw new RangeError(`not a calendar day: ${day}`);
  return { start: zonedMidnight(day, timeZone), end: zonedMidnight(addDays(day, 1), timeZone) };
}


/** The day before the one `now` falls on in `timeZone`: what the nightly job reconciles. */
export function previousDay(now: Date, timeZone: string): string {
  return addDays(dayOf(now, timeZone), -1);
}

/**
 * A day has ended in `timeZone` once `now` is past it: the nightly job's day (`previousDay`) and every day before it.
 * Today and later are still open, so no run may read them (a statement of a day that has not ended is short).
 */
export function isDayClosed(day: string, now: Date, timeZone: string): boolean {
  // Both YYYY-MM-DD with four-digit years: the text order is the calendar order.
  return day <= previousDay(now, timeZone);
}


/** The instant at which `day` begins in `timeZone`, daylight saving included. */
function zonedMidnight(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const asUtc = Date.UTC(year, month - 1, date);
  // Two passes: the offset at the guess can differ from the offset at the answer across a DST change.
  let instant = asUtc - offsetMs(new Date(asUtc), timeZone);
  instant = asUtc - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`. */
function offsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}
