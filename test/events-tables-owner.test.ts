import { describe, expect, it } from 'vitest';
import { BENCH_SEEDERS, applicationSources } from './support/table-writers.js';

/**
 * Events are written by the database alone: `emit_event` (the MerchantEvents migration) is the only writer of
 * `events` and `event_objects`, so no application path can write an event outside the transaction of its fact,
 * or forget the version counter. Application code calls `SELECT emit_event(...)`; it never writes those tables.
 * `list_statuses` likewise: the same commit step keeps it (MerchantListStatuses), the lists only read it.
 * The endpoint and delivery tables belong to libs/events.
 */
const DATABASE_ONLY = '(events|event_objects|list_statuses)';
const EVENTS_LIBRARY = 'libs/events/src/';
const EVENTS_OWNED = '(webhook_endpoints|webhook_deliveries|webhook_delivery_attempts)';
const writes = (tables: string) => new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${tables}\\b`, 'i');

describe('the event tables', () => {
  it('are never written by application code: emit_event in the database is their one writer', () => {
    // bench:lists seeds its fixtures' list rows straight into a scratch database, as the charges' bench seeders do.
    expect(applicationSources().filter(({ file, text }) => !BENCH_SEEDERS.has(file) && writes(DATABASE_ONLY).test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('leave endpoints and deliveries to libs/events', () => {
    // The walk really sees the library's own writer (a broken walk would find nothing and pass).
    expect(applicationSources().some(({ file, text }) => file === `${EVENTS_LIBRARY}webhook-endpoint.store.ts` && writes(EVENTS_OWNED).test(text))).toBe(true);
    expect(applicationSources().filter(({ file, text }) => !file.startsWith(EVENTS_LIBRARY) && writes(EVENTS_OWNED).test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('would catch a writer: the pattern matches the forms SQL takes, and not the tables it must not', () => {
    for (const sample of ['INSERT INTO events (id) VALUES ($1)', 'update  event_objects set version = 2', 'DELETE FROM\n events WHERE seq = 1']) {
      expect(writes(DATABASE_ONLY).test(sample.replace(/\s+/g, ' ')), sample).toBe(true);
    }
    for (const sample of ['INSERT INTO webhook_events (id) VALUES ($1)', 'SELECT emit_event($1)', 'UPDATE events_archive SET x = 1', 'SELECT * FROM events']) {
      expect(writes(DATABASE_ONLY).test(sample), sample).toBe(false);
    }
  });
});
