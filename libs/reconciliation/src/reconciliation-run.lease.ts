import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

/** A run as claimed by one executor: `executions` is its fencing token (every claim increments it). */
export interface ClaimedRun {
  id: string;
  provider: string;
  day: string;
  source: 'api' | 'report';
  executions: number;
}

/** Who holds a lease: readable in the table, unique per process. */
export const LEASE_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export const CLAIMED_COLUMNS = `id, provider, day::text AS day, source, executions`;
