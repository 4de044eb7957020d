import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { applicationSources } from './support/table-writers.js';

/** The same allow-list `npm run lint` enforces (.dependency-cruiser.cjs), read from there so the two never drift. */
const rule = (createRequire(import.meta.url)('../.dependency-cruiser.cjs') as { forbidden: Array<{ name: string; from: { pathNot: string } }> }).forbidden.find(
  (r) => r.name === 'replica-reader-allow-list',
);
const allowed = new RegExp(rule?.from.pathNot ?? '^$');

/** Where money is decided: opening attempts, applying facts, refund caps, balances, payouts, review decisions, resolution. */
const MONEY = /^libs\/(attempts|charges|refunds|payouts|ledger|resolution|webhooks)\/|^libs\/review\/src\/(review-(decision|money|four-eyes|acknowledge|gap|claims|provider-check)|reviewed-attempt|late-capture|items\/)/;

/** A file that can reach the replica: it imports the reader's entry or names its token. */
const REACHES_REPLICA = /@app\/database\/replica|\bReplicaReader\b|database\/src\/replica\//;

const sources = applicationSources();
/** The classes that read the replica: a money file must not reach them either (it would decide on their rows). */
const replicaServed = sources
  .filter(({ file, text }) => allowed.test(file) && !file.startsWith('libs/database/') && REACHES_REPLICA.test(text))
  .flatMap(({ text }) => [...text.matchAll(/export class (\w+)/g)].map((m) => m[1]));

describe('the replica reader', () => {
  it('is reached only from the allow-listed screens and exports', () => {
    expect(rule).toBeDefined();
    const outside = sources.filter(({ file, text }) => !allowed.test(file) && REACHES_REPLICA.test(text)).map(({ file }) => file);
    expect(outside).toEqual([]);
  });

  it('is never reached by a money module, directly or through a class that reads the replica', () => {
    expect(replicaServed).toEqual(expect.arrayContaining(['AttemptTrendsQuery', 'ChargeLookupQuery', 'ReconciliationCalendarQuery', 'RefundProposalsExport', 'ReviewQueueTrendQuery']));
    const money = sources.filter(({ file }) => MONEY.test(file));
    // A broken walk or pattern would find no money file at all, and pass.
    expect(money.map(({ file }) => file)).toEqual(expect.arrayContaining(['libs/attempts/src/attempt-opener.service.ts', 'libs/review/src/review-money.decision.ts', 'libs/refunds/src/refunds.service.ts']));
    const served = new RegExp(`\\b(${replicaServed.join('|')})\\b`);
    const offenders = money.filter(({ file, text }) => allowed.test(file) || REACHES_REPLICA.test(text) || served.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('would catch a money file that injects it: the patterns match the forms an import or an injection takes', () => {
    for (const sample of ["import { ReplicaReader } from '@app/database/replica';", 'constructor(private readonly replica: ReplicaReader) {}', "import { PostgresReplicaReader } from '../../database/src/replica/replica-reader.js';"]) {
      expect(REACHES_REPLICA.test(sample), sample).toBe(true);
    }
    expect(allowed.test('libs/attempts/src/attempt-opener.service.ts')).toBe(false);
    expect(allowed.test('libs/review/src/charge-lookup.query.ts')).toBe(true);
  });
});
