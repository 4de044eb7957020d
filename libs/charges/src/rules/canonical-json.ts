/**
 * JSON with keys in sorted order and undefined fields left out, so `{a,b}` and `{b,a}` are the same request for an
 * inbound Idempotency-Key.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // An absent field and an undefined one are the same request (validated DTOs carry undefined optionals).
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    const entries = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
