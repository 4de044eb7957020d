/** setTimeout's (and so Bull's) limit; a longer delay is a unit mistake, not a plan. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * Reads a delay list from the environment, e.g. `RESOLUTION_BACKOFF_MS="2000,30000,60000"`, or returns why it
 * cannot: a typo here would otherwise surface as a resend storm or a stuck attempt, long after boot.
 */
export function parseDelayList(raw: string): { delays: number[] } | { problem: string } {
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') return { problem: 'is empty: expected a comma-separated list of delays in ms, e.g. "30000,60000"' };
  const delays: number[] = [];
  for (const [position, entry] of entries.entries()) {
    const delay = Number(entry);
    if (!/^\d+$/.test(entry) || delay <= 0 || delay > MAX_DELAY_MS) {
      return { problem: `entry ${position + 1} ("${entry}") is not a whole number of milliseconds between 1 and ${MAX_DELAY_MS}` };
    }
    delays.push(delay);
  }
  return { delays };
}
