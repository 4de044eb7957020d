/** Checks for values read from the outside (provider bodies, webhooks, statement lines), in one place. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our ids are UUIDs: a reference that is not one cannot be ours, and must not reach a uuid column. */
export function isUuid(value: string | null | undefined): boolean {
  return value != null && UUID.test(value);
}

/** The parsed body, or undefined when it is not JSON (a proxy's HTML page, a truncated body). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
