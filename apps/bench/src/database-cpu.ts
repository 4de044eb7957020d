import { readFileSync, readdirSync } from 'node:fs';
import { readCpuSeconds } from './bench-process.js';

/** A backend's process title: `postgres: [cluster: ]user database client state`. */
const BACKEND_TITLE = /^postgres: (?:\S+: )?\S+ (\S+) /;

/**
 * CPU used so far by the PostgreSQL backends serving `database` (their process title names it), in seconds. On a
 * machine where the database shares the cores with the api, this is the part of a charge's cost no change to the
 * api can remove. Shared processes (WAL writer, checkpointer) and backends that exited are not counted: an
 * undercount, so a bound computed from it is generous to the api.
 */
export function databaseBackendsCpuSeconds(database: string): number {
  let seconds = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (BACKEND_TITLE.exec(title)?.[1] === database) seconds += readCpuSeconds(Number(pid), 'user+system');
    } catch {
      // gone between the listing and the read
    }
  }
  return seconds;
}
