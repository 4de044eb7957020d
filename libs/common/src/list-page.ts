import { InvalidListCursorError, InvalidListDateError, InvalidListFilterError, InvalidListLimitError, InvalidListStatusError } from './list-page.errors.js';
import { isUuid } from './unknown-value.guards.js';

export const LIST_PAGE_DEFAULT = 50;
export const LIST_PAGE_MAX = 200;

/** Where a page ends: the last row's created_at in microseconds since the epoch (PostgreSQL's precision) and its id. */
export interface ListPosition {
  createdAtMicros: string;
  id: string;
}

export interface ListPage<T> {
  items: T[];
  /** Hand it back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** Opaque to clients: newest first by (created_at, id), so a page never shifts when newer rows arrive. */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(`l1:${position.createdAtMicros}:${position.id}`, 'utf8').toString('base64url');
}

export function decodeListCursor(cursor: string): ListPosition {
  const match = /^l1:(-?\d{1,17}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // base64url decoding skips what it cannot read: only a cursor that re-encodes to itself is one of ours.
  if (!match || !isUuid(match[2]) || encodeListCursor({ createdAtMicros: match[1], id: match[2] }) !== cursor) throw new InvalidListCursorError();
  return { createdAtMicros: match[1], id: match[2] };
}

/** The query string as Fastify parses it: a repeated parameter arrives as an array. */
export type RawQuery = Record<string, unknown>;

function single(query: RawQuery, field: string): string | undefined {
  const value = query[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidListFilterError(field, 'must be given once');
  return value;
}

export function listLimit(query: RawQuery): number {
  const value = single(query, 'limit');
  if (value === undefined) return LIST_PAGE_DEFAULT;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > LIST_PAGE_MAX) throw new InvalidListLimitError(LIST_PAGE_MAX);
  return Number(value);
}

export function listCursor(query: RawQuery): ListPosition | null {
  const value = single(query, 'cursor');
  if (value === undefined) return null;
  if (value.length === 0 || value.length > 200) throw new InvalidListCursorError();
  return decodeListCursor(value);
}

export function listStatus<S extends string>(query: RawQuery, known: readonly S[]): S | null {
  const value = single(query, 'status');
  if (value === undefined) return null;
  if (!(known as readonly string[]).includes(value)) throw new InvalidListStatusError(known);
  return value as S;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text the merchant chose (an order or customer id), compared exactly: clean text or a 400, never a mangled match. */
export function listText(query: RawQuery, field: string, maxLength = 255): string | null {
  const value = single(query, field);
  if (value === undefined) return null;
  if (value.length === 0 || value.length > maxLength) throw new InvalidListFilterError(field, `must be 1 to ${maxLength} characters`);
  // A NUL cannot reach PostgreSQL text, and U+FFFD is what an ill-formed byte sequence decoded to.
  if (value.includes('\u0000') || value.includes('\uFFFD') || LONE_SURROGATE.test(value)) throw new InvalidListFilterError(field, 'must be well-formed text without NUL');
  return value;
}

export function listUuid(query: RawQuery, field: string): string | null {
  const value = single(query, field);
  if (value === undefined) return null;
  if (!isUuid(value)) throw new InvalidListFilterError(field, 'must be an id (uuid)');
  return value.toLowerCase();
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A date (midnight UTC) or an ISO-8601 instant with its offset, checked as a real calendar moment (no 2026-02-30). */
export function listInstant(query: RawQuery, field: string): Date | null {
  const value = single(query, field);
  if (value === undefined) return null;
  const m = INSTANT.exec(value);
  const invalid = () => new InvalidListDateError(field, 'must be a real date (2026-03-01) or instant (2026-03-01T12:00:00Z) from year 2000 to 9999');
  if (!m) throw invalid();
  const [year, month, day, hour = '00', minute = '00', second = '00'] = m.slice(1, 7);
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const real = calendar.getUTCFullYear() === Number(year) && calendar.getUTCMonth() === Number(month) - 1 && calendar.getUTCDate() === Number(day);
  if (!real || Number(year) < 2000 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw invalid();
  const offset = m[8];
  if (offset && offset !== 'Z' && (Number(offset.slice(1, 3)) > 14 || Number(offset.slice(4)) > 59)) throw invalid();
  return new Date(m[4] === undefined ? `${value}T00:00:00Z` : value);
}

export interface CreatedRange {
  from: Date | null;
  to: Date | null;
}

/** createdFrom ≤ created_at < createdTo. */
export function listCreatedRange(query: RawQuery): CreatedRange {
  const from = listInstant(query, 'createdFrom');
  const to = listInstant(query, 'createdTo');
  if (from && to && from.getTime() > to.getTime()) throw new InvalidListDateError('createdTo', 'must not be before createdFrom');
  return { from, to };
}

/** The next cursor from a page read with limit + 1 rows: a row past the limit means there is more. */
export function pageOf<R extends { at_us: string; id: string }, T>(rows: R[], limit: number, toItem: (row: R) => T): ListPage<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(toItem), nextCursor: rows.length > limit ? encodeListCursor({ createdAtMicros: last.at_us, id: last.id }) : null };
}
