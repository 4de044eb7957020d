import type { StripePaymentIntent } from './payment-intent.js';

/** A query the simulator cannot run; Stripe answers such queries with 400 invalid_request_error. */
export class UnsupportedSearchQuery extends Error {}

type FieldReader = (intent: StripePaymentIntent) => string | null | undefined;
type Clause = { read: FieldReader; value: string };

const FIELDS: Record<string, FieldReader> = {
  customer: (intent) => intent.customer,
  status: (intent) => intent.status,
  currency: (intent) => intent.currency,
};

// metadata['key'] or metadata["key"], or a plain field; then ':' and a quoted value (backslash escapes quotes).
const CLAUSE = /^(?:metadata\[(['"])(.+?)\1\]|([a-z_]+))\s*:\s*(['"])((?:\\.|(?!\4)[^\\])*)\4/;
const AND = /^\s+(?:AND\s+)?/;

/**
 * Parses the subset of Stripe's search language the service uses: exact-match clauses on metadata keys,
 * `customer`, `status` and `currency`, joined by AND (or a space). Matching is case-insensitive, as
 * Stripe documents for `field:value`.
 */
export function parseSearchQuery(query: string): (intent: StripePaymentIntent) => boolean {
  const clauses: Clause[] = [];
  let rest = query.trim();
  while (rest.length > 0) {
    const match = CLAUSE.exec(rest);
    if (!match) throw new UnsupportedSearchQuery(`the simulator cannot parse search query near: ${rest}`);
    const [whole, , metadataKey, field, , rawValue] = match;
    const read: FieldReader | undefined =
      metadataKey !== undefined ? (intent) => intent.metadata[metadataKey] : Object.hasOwn(FIELDS, field) ? FIELDS[field] : undefined;
    if (!read) throw new UnsupportedSearchQuery(`the simulator cannot search on field ${field}`);
    clauses.push({ read, value: rawValue.replace(/\\(.)/g, '$1').toLowerCase() });
    rest = rest.slice(whole.length);
    if (rest.length === 0) break;
    const joiner = AND.exec(rest);
    if (!joiner) throw new UnsupportedSearchQuery(`the simulator only joins clauses with AND, near: ${rest}`);
    rest = rest.slice(joiner[0].length);
  }
  if (clauses.length === 0) throw new UnsupportedSearchQuery('empty search query');
  return (intent) => clauses.every(({ read, value }) => (read(intent) ?? '').toLowerCase() === value);
}
