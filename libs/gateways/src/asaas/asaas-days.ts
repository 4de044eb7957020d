/** Calendar days in a time zone, for an API that speaks in dates (`YYYY-MM-DD`), not instants. */
export function dayIn(timeZone: string, instant: Date): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** The instant of 12:00 on `day` in `timeZone`: inside that local day whatever the zone's offset. */
export function noonOf(day: string, timeZone: string): Date {
  const noonUtc = Date.parse(`${day}T12:00:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(noonUtc))
      .map((p) => [p.type, p.value]),
  );
  const wallClock = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return new Date(noonUtc - (wallClock - noonUtc));
}
