import { fc } from '@fast-check/vitest';
import type { Operation, Parameter, Schema } from './openapi-operations.js';

/** One HTTP request the property suite sends: the path and query exactly as written on the wire. */
export interface GeneratedRequest {
  method: string;
  /** Path and raw query string, percent-escapes and all. */
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** What the body is, for the figures and a failure's message (the body itself may be 1 MB). */
  kind: string;
  auth: 'right' | 'none' | 'unknown' | 'other';
}

/** Real ids of the caller's own objects, by the path segment that names their collection (`charges`, `items`). */
export type IdPools = Record<string, string[]>;

const BOUNDARY_NUMBERS = [0, -0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, 0.5, 49.9, 4990.01, 1e21];
const NASTY_STRINGS = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '1e308', '-1', '0x10', '1_000', '  7 ', 'null', 'true', '[]', '{}',
  '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ufeffbrl', '💸', 'ü', 'BRL', 'xxx', 'usd ', "1' OR '1'='1", '%00', '../..',
  '2026-02-30', '2026-13-45', '9999-12-31', '0000-00-00', '2026-02-30T10:00:00Z', '2026-12-07T25:61:00Z', '1970-01-01',
  '-1s', '0m', '99999999999d', '00000000-0000-0000-0000-000000000000', 'not-a-uuid',
];
export const HUGE_STRING = 'x'.repeat(100_000);

/** Any value of a type the schema did not ask for, at the edges of every type. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 'a'], { a: { b: 1 } }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constant(HUGE_STRING) },
);

/** A value the schema would probably take: its example, one of its enum, or one of its type and format. */
export function plausible(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const byType = typed(schema, depth);
  if (schema.example === undefined) return byType;
  // An example string with a fresh suffix (`order-42-k3`) reaches past "already exists" to a real create.
  const varied = typeof schema.example === 'string' ? [{ weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 4, maxLength: 8 }).map((s) => `${String(schema.example)}-${s}`) }] : [];
  return fc.oneof({ weight: 3, arbitrary: fc.constant(schema.example) }, ...varied, { weight: 1, arbitrary: byType });
}

function typed(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date') return day();
      if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      return fc.oneof(fc.string({ maxLength: 24 }), day(), fc.uuid());
    case 'number':
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 1_000_000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items, depth + 1), { maxLength: 3 });
    case 'object':
    default:
      if (!schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, plausible(v, depth + 1)])), { requiredKeys: schema.required ?? [] });
  }
}

function day(): fc.Arbitrary<string> {
  return fc.date({ min: new Date('2025-01-01'), max: new Date('2027-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
}

/** Only the required fields, each its example (varied) or a value of its enum or format: the body most likely taken. */
export function minimal(schema: Schema | undefined): fc.Arbitrary<unknown> {
  if (!schema?.properties) return plausible(schema);
  const required = schema.required ?? [];
  return fc.record(Object.fromEntries(required.map((k) => [k, plausible(schema.properties![k])])));
}

/** The schema's shape with some fields swapped for hostile values and some unknown fields added. */
export function mutated(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema?.properties || depth > 4) return fc.oneof({ weight: 3, arbitrary: plausible(schema, depth) }, { weight: 1, arbitrary: hostileValue });
  const fields = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k, fc.oneof({ weight: 3, arbitrary: plausible(v, depth + 1) }, { weight: 2, arbitrary: mutated(v, depth + 1) }, { weight: 1, arbitrary: hostileValue })]),
  );
  const unknown = fc.dictionary(fc.constantFrom('extra', 'status', 'merchantId', 'id', '__proto__', 'constructor', 'amount', 'succeeded'), hostileValue, { maxKeys: 2 });
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), fc.option(unknown, { freq: 3 })).map(([known, extra]) => ({ ...(extra ?? {}), ...known }));
}

const DEEP_NESTINGS = fc.integer({ min: 33, max: 100_000 });

/** A body and its content type, from the well-formed to the unreadable. */
export function bodyOf(schema: Schema | undefined, maxBodyBytes: number): fc.Arbitrary<Pick<GeneratedRequest, 'body' | 'kind'> & { type: string | undefined }> {
  const json = (kind: string) => (value: unknown) => ({ body: JSON.stringify(value), kind, type: 'application/json' as string | undefined });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ body: undefined, kind: 'none', type: undefined }) },
    { weight: 2, arbitrary: minimal(schema).map(json('minimal')) },
    { weight: 3, arbitrary: plausible(schema).map(json('plausible')) },
    { weight: 6, arbitrary: mutated(schema).map(json('mutated')) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json('any-json')) },
    {
      weight: 1,
      arbitrary: fc.tuple(DEEP_NESTINGS, fc.constantFrom('[', '{"a":'), fc.boolean()).map(([n, open, inField]) => {
        const close = open === '[' ? ']' : '}';
        const deep = open.repeat(n) + (open === '[' ? '' : '1') + close.repeat(n);
        return { body: inField ? `{"orderId":${deep},"amountCents":1}` : deep, kind: 'deep', type: 'application/json' };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(plausible(schema), fc.constantFrom([0xc3, 0x28], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82])).map(([value, bytes]) => {
        const text = JSON.stringify(withStringAt(value, '\uE000'));
        const [head, ...tail] = text.split('\uE000');
        return { body: Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail.join(''))]), kind: 'bad-utf8', type: 'application/json' };
      }),
    },
    { weight: 1, arbitrary: fc.tuple(plausible(schema), fc.constantFrom('\\u0000', '\\ud800', '\\udc00x', 'a\\u0000')).map(([value, escape]) => ({ body: JSON.stringify(withStringAt(value, '\uE000')).replace('\uE000', escape), kind: 'escaped-nul-or-surrogate', type: 'application/json' })) },
    { weight: 1, arbitrary: plausible(schema).map((value) => ({ body: JSON.stringify(withStringAt(value, HUGE_STRING)), kind: 'huge-string', type: 'application/json' })) },
    { weight: 1, arbitrary: fc.constant({ body: `{"a":"${'y'.repeat(maxBodyBytes)}"}`, kind: 'over-body-limit', type: 'application/json' }) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('{', '{"a":', 'nul', '[1,]', "{'a':1}", '\ufeff{}', '{"a":1}{"b":2}', ' ', '1', '"text"', 'null', '[]'), fc.string()).map((body) => ({ body, kind: 'malformed-json', type: 'application/json' })) },
    {
      weight: 2,
      arbitrary: fc.tuple(plausible(schema), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/merge-patch+json', 'application/vnd.api+json', 'text/json', 'application/json-seq'))
        .map(([value, type]) => ({ body: JSON.stringify(value), kind: `type:${type.split(';')[0].toLowerCase()}`, type })),
    },
  );
}

/** The value with a string field set to `text` (the first field of an object, or the whole value otherwise). */
function withStringAt(value: unknown, text: string): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    return keys.length ? { ...value, [keys[0]]: text } : { orderId: text };
  }
  return text;
}

const RAW_ESCAPES = ['%00', 'a%00b', '%C3%28', '%FF', '%', '%zz', '%E0%A4%A', '%ED%A0%80', '%F8%88%80%80%80', '%2F', '%20', '+', '%0A', '%25'];

/** A query value on the wire: a plausible one, a hostile one, or raw escapes that decode to no UTF-8. */
function queryValue(schema: Schema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: plausible(schema).map((v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))) },
    // A 100 kB value overflows Node's 16 kB request line (431, never reaching the app): mostly 8 kB, which does reach it.
    { weight: 2, arbitrary: hostileValue.map((v) => encodeURIComponent(v === HUGE_STRING ? 'q'.repeat(8_000) : toText(v))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    { weight: 1, arbitrary: fc.constantFrom(HUGE_STRING, 'q'.repeat(8_000)) },
  );
}

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): it goes as its would-be bytes. */
function toText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/[\uD800-\uDFFF]/g, (c) => (/[\uD800-\uDBFF]/.test(c) ? '\u0000' : '\u0001'));
}

function queryOf(parameters: Parameter[]): fc.Arbitrary<string> {
  const known = parameters.filter((p) => p.in === 'query');
  const pairs = fc.tuple(
    ...known.map((p) => fc.option(fc.array(queryValue(p.schema), { minLength: 1, maxLength: 2 }).map((values) => values.map((v) => `${p.name}=${v}`)), { freq: 2 })),
    fc.option(fc.tuple(fc.constantFrom('extra', 'limit', 'cursor', '__proto__', 'a[b]', 'status[]', ''), queryValue(undefined)).map(([k, v]) => [`${k}=${v}`]), { freq: 4 }),
  );
  return pairs.map((groups) => groups.flatMap((g) => g ?? []).join('&'));
}

const PATH_NOISE = ['%00', '%zz', '%C3%28', 'x'.repeat(5_000), '..', '%2F', '-1', '0', '99999999999999999999', "1'%20OR%20'1'='1", '%20', 'null', '00000000-0000-0000-0000-000000000000'];

/** A path parameter: a real id of the caller's (by the collection the segment before it names), or anything. */
function pathValue(path: string, name: string, pools: IdPools): fc.Arbitrary<string> {
  const segments = path.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
  const real = pools[collection] ?? [];
  return fc.oneof(
    ...(real.length ? [{ weight: 6, arbitrary: fc.constantFrom(...real) }] : []),
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s)) },
    { weight: 1, arbitrary: fc.constantFrom(...PATH_NOISE) },
    ...(real.length ? [{ weight: 1, arbitrary: fc.constantFrom(...real).map((id) => id.toUpperCase()) }] : []),
  );
}

/** Header values fetch can send (ByteStrings): ordinary keys, long ones, empty ones. */
const headerValue = fc.oneof(fc.uuid(), fc.constantFrom('', ' ', 'k'.repeat(300), 'k'.repeat(8_000), 'é', '\u00ff\u00fe'), fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }));

export function requestOf(op: Operation, pools: IdPools, maxBodyBytes: number): fc.Arbitrary<GeneratedRequest> {
  const pathParams = op.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
  const takesBody = op.method !== 'get' && op.method !== 'delete';
  const headers = op.parameters.filter((p) => p.in === 'header');
  return fc
    .record({
      params: fc.tuple(...pathParams.map((name) => pathValue(op.path, name, pools))),
      query: fc.option(queryOf(op.parameters), { freq: 2, nil: '' }),
      // fetch sends no body with a GET; a DELETE may carry one.
      body: takesBody ? bodyOf(op.body, maxBodyBytes) : op.method === 'delete' ? fc.option(bodyOf(op.body, maxBodyBytes), { freq: 4, nil: undefined }) : fc.constant(undefined),
      headers: fc.tuple(...headers.map(() => fc.option(headerValue, { freq: 4 }))),
      auth: fc.constantFrom<GeneratedRequest['auth']>('right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'none', 'unknown', 'other'),
    })
    .map(({ params, query, body, headers: headerValues, auth }) => {
      let path = op.path;
      pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, params[i])));
      const sent: Record<string, string> = {};
      headers.forEach((h, i) => headerValues[i] !== null && (sent[h.name] = headerValues[i]!));
      if (body?.type) sent['Content-Type'] = body.type;
      return { method: op.method.toUpperCase(), url: query ? `${path}?${query}` : path, headers: sent, body: body?.body, kind: body?.kind ?? 'none', auth };
    });
}
