/**
 * Faults injected from now on. A simulator shared by a file's tests keeps counting across them, so a test reads
 * the change over its own run: an earlier test's fault can never make this one's assertion hold.
 */
export function countFaultsFrom(sim: { stats(): { faultsInjected: Record<string, number> } }): (fault: string) => number {
  const before = { ...sim.stats().faultsInjected };
  return (fault) => (sim.stats().faultsInjected[fault] ?? 0) - (before[fault] ?? 0);
}
