import { stdSerializers } from 'pino';

/** Fields of a PostgreSQL error (and TypeORM's QueryFailedError around it) that carry the statement's values. */
const VALUE_FIELDS = ['parameters', 'detail', 'where', 'hint', 'internalQuery'] as const;

/**
 * The `err` of every log line, without the values a failed statement was given: TypeORM's QueryFailedError keeps
 * its `parameters` (a payee's CPF, an order id) and PostgreSQL quotes the offending value in its message
 * (`invalid input syntax for type uuid: "…"`) and its `detail` (`Failing row contains (…)`). What stays is what a
 * person needs to find the statement and the rule: its text with placeholders, `code`, `constraint`, `table`,
 * `column`, `routine`.
 */
export function errorWithoutValues(error: unknown): unknown {
  // pino-http hands its serializers an error pino already serialized; plain pino hands the Error itself.
  if (error instanceof Error) return scrub(stdSerializers.err(error));
  return isRecord(error) ? scrub(error) : error;
}

function scrub(serialized: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...serialized };
  for (const field of VALUE_FIELDS) delete out[field];
  const fromDatabase = typeof out.code === 'string' && /^[0-9A-Z]{5}$/.test(out.code);
  if (isRecord(out.driverError)) out.driverError = scrub(out.driverError);
  if (fromDatabase || isRecord(out.driverError)) {
    if (typeof out.message === 'string') out.message = withoutQuotedValues(out.message);
    if (typeof out.stack === 'string') out.stack = withoutQuotedValues(out.stack);
  }
  if (isRecord(out.cause)) out.cause = scrub(out.cause);
  return out;
}

function withoutQuotedValues(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '"[redacted]"');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
