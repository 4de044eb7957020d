import { dayOf } from '@app/common';

/** Calendar days in a time zone, for an API that speaks in dates (`YYYY-MM-DD`), not instants. */
export function dayIn(timeZone: string, instant: Date): string {
  return dayOf(instant, timeZone);
}

/** The instant of 12:00 on `day` in `timeZone`: inside that local day whatever the zone's offset. */
export function noonOf(day: string, timeZone: string): Date {
  return wallClockIn(`${day} 12:00:00`, timeZone) ?? new Date(Number.NaN);
}

/**
 * The instant a wall-clock time (`YYYY-MM-DD HH:MM:SS`, as Asaas writes `dateCreated`) names in `timeZone`; null when
 * it is not one. Taken at that day's noon offset: a time inside a daylight-saving switch may be an hour off.
 */
export function wallClockIn(dateTime: string, timeZone: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(dateTime);
  if (!match) return null;
  const asUtc = Date.parse(`${match[1]}T${match[2]}Z`);
  if (Number.isNaN(asUtc)) return null;
  const noonUtc = Date.parse(`${match[1]}T12:00:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(noonUtc))
      .map((p) => [p.type, p.value]),
  );
  const wallClock = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return new Date(asUtc - (wallClock - noonUtc));
}
