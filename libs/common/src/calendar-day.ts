/** The calendar day (`YYYY-MM-DD`) `instant` falls on in `timeZone`. */
export function dayOf(instant: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** The calendar day `days` after `day` (both `YYYY-MM-DD`). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/**
 * True for a real calendar day written `YYYY-MM-DD` (years 1000–9999): `2026-02-30` is not one, where `Date` would
 * quietly read it as 2 March and a database refuse it with an error.
 */
export function isCalendarDay(text: unknown): boolean {
  if (typeof text !== 'string' || !/^[1-9]\d{3}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, date] = text.split('-').map(Number);
  const at = new Date(Date.UTC(year, month - 1, date));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date;
}
