export interface RedisNode {
  host: string;
  port: number;
}

/** The one Redis every process uses, in the shape the operator runs it. */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | { kind: 'sentinel'; sentinels: RedisNode[]; name: string; password?: string; sentinelPassword?: string }
  | { kind: 'cluster'; nodes: RedisNode[]; password?: string };

/** The settings that name the Redis; `REDIS_URL` has its default here, the others only when set. */
export interface RedisSettings {
  REDIS_URL?: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: string;
  QUEUE_PREFIX?: string;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)$/;

/** `host:port,host:port`, or why not: a typo would otherwise surface as a process retrying a connection forever. */
export function parseNodeList(raw: string): { nodes: RedisNode[] } | { problem: string } {
  const nodes: RedisNode[] = [];
  for (const [position, entry] of raw.split(',').map((e) => e.trim()).entries()) {
    const colon = entry.lastIndexOf(':');
    const host = entry.slice(0, colon);
    const port = Number(entry.slice(colon + 1));
    if (colon <= 0 || !HOST.test(host) || !/^\d+$/.test(entry.slice(colon + 1)) || port < 1 || port > 65535) {
      return { problem: `entry ${position + 1} ("${entry}") is not host:port, e.g. "10.0.0.5:26379"` };
    }
    nodes.push({ host: host.replace(/^\[|\]$/g, ''), port });
  }
  return { nodes };
}

/**
 * What is wrong with the Redis settings the environment gave (only those it gave: REDIS_URL's default is no choice),
 * one line per variable. Values are never repeated: a URL or a password may hold a secret.
 */
export function redisSettingsProblems(given: RedisSettings): string[] {
  const problems: string[] = [];
  const shapes = (['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const).filter((name) => given[name] !== undefined);
  if (shapes.length > 1) return [`  ${shapes.join(', ')}: set only one of REDIS_URL (one Redis), REDIS_SENTINELS (Sentinel) or REDIS_CLUSTER_NODES (Cluster)`];
  for (const name of ['REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const) {
    const raw = given[name];
    if (raw === undefined) continue;
    const parsed = parseNodeList(raw);
    if ('problem' in parsed) problems.push(`  ${name}: ${parsed.problem}`);
  }
  const sentinel = given.REDIS_SENTINELS !== undefined;
  if (sentinel && given.REDIS_SENTINEL_NAME === undefined) problems.push('  REDIS_SENTINEL_NAME: must be set with REDIS_SENTINELS (the name the sentinels monitor the primary by)');
  for (const name of ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const) {
    if (!sentinel && given[name] !== undefined) problems.push(`  ${name}: only means something with REDIS_SENTINELS`);
  }
  if (given.REDIS_PASSWORD !== undefined && !sentinel && given.REDIS_CLUSTER_NODES === undefined) {
    problems.push('  REDIS_PASSWORD: only means something with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a single Redis takes it in REDIS_URL)');
  }
  // Bull's scripts touch several keys of a queue at once: on a Cluster they must share one slot, which only a hash tag gives.
  if (given.REDIS_CLUSTER_NODES !== undefined && !/^\{[^{}]+\}$/.test(given.QUEUE_PREFIX ?? '')) {
    problems.push('  QUEUE_PREFIX: must be a Redis Cluster hash tag in braces, e.g. {charge-once}, with REDIS_CLUSTER_NODES');
  }
  return problems;
}

/** The shape validated settings name (loadConfig has refused mixed or malformed ones). */
export function redisTopologyOf(settings: RedisSettings): RedisTopology {
  const password = settings.REDIS_PASSWORD;
  if (settings.REDIS_CLUSTER_NODES !== undefined) return { kind: 'cluster', nodes: nodesOf(settings.REDIS_CLUSTER_NODES), password };
  if (settings.REDIS_SENTINELS !== undefined) {
    return { kind: 'sentinel', sentinels: nodesOf(settings.REDIS_SENTINELS), name: settings.REDIS_SENTINEL_NAME ?? 'mymaster', password, sentinelPassword: settings.REDIS_SENTINEL_PASSWORD };
  }
  return { kind: 'single', url: settings.REDIS_URL ?? DEFAULT_URL };
}

function nodesOf(raw: string): RedisNode[] {
  const parsed = parseNodeList(raw);
  if ('problem' in parsed) throw new Error(`Redis node list: ${parsed.problem}`);
  return parsed.nodes;
}
