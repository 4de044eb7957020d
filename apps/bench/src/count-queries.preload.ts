// Loaded into the api with `node --import` by bench:submit only: counts every statement the process sends
// through `pg` (BEGIN and COMMIT included: each is a round trip) and writes the running total to a file when
// the bench sends SIGWINCH, before and after its end-to-end phase (Nest's shutdown hooks take SIGUSR2; SIGWINCH
// is ignored by default). Written on a timer, the file cost the api more CPU than some of the work measured.
import { writeFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_QUERY_COUNT_FILE;
if (file) {
  let count = 0;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    count++;
    return query.apply(this, args);
  };
  process.on('SIGWINCH', () => writeFileSync(file, String(count)));
}

// A profile is written only on a normal exit: the bench stops the api with SIGTERM, which would kill it first.
if (process.execArgv.some((a) => a.startsWith('--cpu-prof') || a.startsWith('--heap-prof'))) process.once('SIGTERM', () => process.exit(0));
