import { isCalendarDay } from '@app/common';

/** `olderThan` in the queue's filter: a duration (`90s`, `15m`, `4h`, `2d`) or an ISO-8601 instant. */
export type OlderThan = { kind: 'age'; ms: number } | { kind: 'before'; at: Date };

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseOlderThan(text: string): OlderThan | null {
  const duration = /^(\d{1,6})([smhd])$/.exec(text);
  if (duration) return { kind: 'age', ms: Number(duration[1]) * UNIT_MS[duration[2]] };
  // Date.parse reads 2026-02-30T… as 2 March: the day itself must be real.
  if (ISO_INSTANT.test(text) && isCalendarDay(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))) return { kind: 'before', at: new Date(text) };
  return null;
}
