/**
 * What time it is, for reconciliation's one question about it: which days have ended (`lastClosedDay`). The port
 * is its own DI token (an abstract class): production has the system clock; a test that reconciles the day its
 * charges were made replaces it with a clock a few days on, as if the run were asked for after that day ended.
 */
export abstract class ReconciliationClock {
  abstract now(): Date;
}

export class SystemReconciliationClock extends ReconciliationClock {
  now(): Date {
    return new Date();
  }
}
