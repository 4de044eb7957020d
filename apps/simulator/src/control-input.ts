import { isRecord } from '@app/common';

/** A control request the simulator cannot act on; the control API answers it with 400. */
export class InvalidControlInput extends Error {
  readonly code = 'invalid_control_input';
}

export function requireRecord(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new InvalidControlInput(`${what} must be a JSON object`);
  return value;
}

export function optionalNumber(value: unknown, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidControlInput(`${what} must be a number between ${min} and ${max}`);
  }
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidControlInput(`${what} must be a string`);
  return value;
}
