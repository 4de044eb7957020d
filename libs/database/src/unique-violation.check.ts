import { QueryFailedError } from 'typeorm';

/** TypeORM has no dedicated class for SQLSTATE 23505; this names the constraint that fired, if any. */
export function uniqueViolationConstraint(error: unknown): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driverError = error.driverError as { code?: string; constraint?: string };
  if (driverError.code !== '23505') return null;
  return driverError.constraint ?? '';
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const fired = uniqueViolationConstraint(error);
  return fired !== null && (constraint === undefined || fired === constraint);
}
