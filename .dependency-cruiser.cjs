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

module.exports = {
  forbidden: [
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
