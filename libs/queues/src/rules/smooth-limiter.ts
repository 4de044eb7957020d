/**
 * Bull counts in fixed windows, so `max` per second would allow twice that in a second straddling two
 * windows. Small windows, sized so that any sliding second touches no more windows than the budget
 * covers, keep every second within the provider's limit (from 2/s up) at about 90% of it on average.
 */
export function smoothLimiter(perSecond: number): { max: number; duration: number } {
  const max = Math.max(1, Math.floor(perSecond / 10));
  const windowsPerSecond = Math.floor(perSecond / max);
  // A sliding second touches ceil(1000 / duration) + 1 windows.
  const duration = windowsPerSecond > 1 ? Math.ceil(1000 / (windowsPerSecond - 1)) : 1000;
  return { max, duration };
}
