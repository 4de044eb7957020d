/**
 * When a delivery that did not get a 2xx is tried again: 5 s, 1 min, 10 min, 1 h, 6 h, then every 12 h, until
 * three days after the event (then it is abandoned, and stays listable and redeliverable). Published in the README;
 * tests compress it through WEBHOOK_RETRY_SCHEDULE_MS and WEBHOOK_GIVE_UP_AFTER_MS.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 60_000, 600_000, 3_600_000, 21_600_000, 43_200_000];
export const DEFAULT_GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;

/** After `tries` failed tries (1 or more) of a delivery `ageMs` old: the wait before the next, or null to give up. */
export function nextTryDelayMs(tries: number, ageMs: number, schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS, giveUpAfterMs = DEFAULT_GIVE_UP_AFTER_MS): number | null {
  const delay = schedule[Math.min(Math.max(tries, 1), schedule.length) - 1];
  return ageMs + delay > giveUpAfterMs ? null : delay;
}

/** What one try proved. 410 Gone is the receiver saying the endpoint no longer exists: stop sending to it. */
export type DeliveryVerdict = 'delivered' | 'retry' | 'gone';

export function deliveryVerdict(httpStatus: number | null): DeliveryVerdict {
  if (httpStatus !== null && httpStatus >= 200 && httpStatus < 300) return 'delivered';
  return httpStatus === 410 ? 'gone' : 'retry';
}
