/**
 * Layers, checked transitively: a rule that decides money must not reach a framework or I/O through any chain
 * of imports, so a helper that quietly pulls in TypeORM is caught wherever it sits, not only when a file list
 * names it.
 */
const FRAMEWORK_OR_IO = [
  '^node_modules/(@nestjs|typeorm|@nestjs/typeorm|bull|@nestjs/bull|ioredis|pg|pg-copy-streams|pino|nestjs-pino|prom-client|express)/',
  '^(fs|net|http|https|tls|child_process|dgram|dns)$',
  '^node:(fs|net|http|https|tls|child_process|dgram|dns)',
].join('|');

/**
 * The only files that may import the replica reader (@app/database/replica): screens and exports that show a slightly
 * old picture and decide nothing. test/replica-reader-owner.test.ts reads this same list.
 */
const REPLICA_READERS = [
  'libs/database/src/',
  'libs/review/src/attempt-trends.query.ts',
  'libs/review/src/review-queue.trend.ts',
  'libs/review/src/charge-lookup.query.ts',
  'libs/reconciliation/src/reconciliation-calendar.query.ts',
  'libs/reconciliation/src/refund-proposals.export.ts',
  // Pages of history only (older than a minute); the feed's head reads the primary.
  'libs/events/src/feed/event-feed.query.ts',
  // Counts who served those reads; reads nothing itself.
  'libs/observability/src/replica-reads.metric.ts',
];

module.exports = {
  forbidden: [
    {
      name: 'replica-reader-allow-list',
      severity: 'error',
      comment:
        'A replica may be seconds behind: only the allow-listed screens and exports read it. No money decision (opening an attempt, ' +
        'applying a fact, a refund cap, a balance, a review decision) may import the replica reader.',
      from: { path: '^(libs|apps)/', pathNot: `^(${REPLICA_READERS.map((p) => p.replace(/\./g, '\\.')).join('|')})` },
      to: { path: '^libs/database/src/replica/' },
    },
    {
      name: 'pure-rules',
      severity: 'error',
      comment: 'libs/*/src/rules/ hold plain TypeScript: no Nest, TypeORM, queues, database or I/O, even transitively.',
      from: { path: '^libs/[^/]+/src/rules/', pathNot: '\\.spec\\.ts$' },
      to: { path: FRAMEWORK_OR_IO, reachable: true },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      comment: 'A library is used by apps; it never depends on one.',
      from: { path: '^libs/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^apps/' },
    },
    {
      name: 'review-internals-private',
      severity: 'error',
      comment:
        'Review has two public faces: @app/review (the queue, claims, decisions) and @app/review/items (the item store: open, ' +
        'append, close, query). Nothing outside libs/review imports a file behind them.',
      from: { path: '^(libs|apps)/', pathNot: '^libs/review/' },
      to: { path: '^libs/review/src/', pathNot: '^libs/review/src/(index|items/index)\\.ts$' },
    },
    {
      name: 'review-store-stands-alone',
      severity: 'error',
      comment:
        'The item store imports no library but database: attempts, webhooks and reconciliation open and close items through it ' +
        "while review's decisions depend on attempts, and this is what keeps that from being a cycle.",
      from: { path: '^libs/review/src/items/' },
      to: { path: '^libs/', pathNot: '^libs/(review/src/items|database)/' },
    },
    {
      name: 'row-stores-stand-alone',
      severity: 'error',
      comment:
        'The one writers of charges and refunds (@app/charges/store, @app/refunds/store) import no library but database: ' +
        'attempts release a failed refund through them while refunds and charges depend on attempts.',
      from: { path: '^libs/(charges|refunds)/src/store/' },
      to: { path: '^libs/', pathNot: '^libs/((charges|refunds)/src/store|database)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between modules. TypeORM entities name each other in relations; those cycles are the ORM\'s own.',
      from: { path: '^libs/', pathNot: '^libs/database/src/entities/' },
      to: { circular: true },
    },
    {
      name: 'provider-is-one-unit',
      severity: 'error',
      comment:
        'A provider folder (libs/gateways/src/<provider>/, apps/simulator/src/<provider>/) reaches only its own files and the shared ones above it, never another provider\'s: what is shared moves up.',
      from: { path: '^(libs/gateways/src|apps/simulator/src)/(stripe|asaas|efi)/' },
      to: { path: '^(libs/gateways/src|apps/simulator/src)/(stripe|asaas|efi)/', pathNot: '^$1/$2/' },
    },
    {
      name: 'attempts-never-import-ledger',
      severity: 'error',
      comment: 'A payout settles its reservation through the settlement hook the payouts module registers; attempts know no money.',
      from: { path: '^libs/attempts/' },
      to: { path: '^libs/ledger/' },
    },
    {
      name: 'charges-never-import-refunds',
      severity: 'error',
      comment: 'The charge view shows refunds the api hands in (where the views meet); charges never reach into refunds.',
      from: { path: '^libs/charges/' },
      to: { path: '^libs/refunds/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
