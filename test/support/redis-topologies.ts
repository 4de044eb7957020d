import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);
const HOST = '127.0.0.1';

/**
 * Real Redis topologies from the machine's `redis-server` and `redis-cli`, on loopback ports in 7100–7199 with
 * their files in a temporary folder: a Cluster (3 masters, one replica each) and a Sentinel set (a primary, a
 * replica, 3 sentinels). Nothing is shared with the machine's own Redis; `stop()` kills every process and removes
 * the folder.
 */
interface RedisProcess {
  port: number;
  child: ChildProcess;
}

class ProcessSet {
  readonly dir = mkdtempSync(join(tmpdir(), 'co-redis-'));
  readonly processes: RedisProcess[] = [];

  start(port: number, args: string[]): RedisProcess {
    const child = spawn('redis-server', args, { cwd: this.dir, stdio: 'ignore' });
    const started = { port, child };
    this.processes.push(started);
    return started;
  }

  kill(port: number): void {
    const found = this.processes.find((p) => p.port === port);
    if (!found) throw new Error(`no redis process on port ${port}`);
    found.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    const running = this.processes.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    await Promise.all(running.map(({ child }) => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGKILL')))));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', HOST, '-p', String(port), ...args], { timeout: 10_000 });
  return stdout.trim();
}

async function answers(port: number): Promise<boolean> {
  return redisCli(port, 'ping').then(
    (reply) => reply === 'PONG',
    () => false,
  );
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** `count` consecutive free ports between `from` and `to` (each port + `busOffset` free too, for a Cluster's bus). */
async function freeBlock(from: number, to: number, count: number, busOffset?: number): Promise<number> {
  for (let base = from; base + count - 1 <= to; base++) {
    let free = true;
    for (let port = base; free && port < base + count; port++) free = (await portFree(port)) && (busOffset === undefined || (await portFree(port + busOffset)));
    if (free) return base;
  }
  throw new Error(`no ${count} free ports between ${from} and ${to}`);
}

/** `127.0.0.1:7100@17100` → 7100. */
const portOf = (address: string) => Number(address.split('@')[0].split(':')[1]);

const COMMON = ['--bind', HOST, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];

export interface RedisClusterTopology {
  /** Every node as `host:port,…`: REDIS_CLUSTER_NODES. */
  nodes: string;
  ports: number[];
  /** The port of the master serving the slot `key` hashes to. */
  masterOf(key: string): Promise<number>;
  /** SIGKILL one node. */
  kill(port: number): void;
  /** Resolves once every live node reports `cluster_state:ok`. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** 3 masters and one replica each (so a master killed fails over), node timeout 1 s. Ports in 7100–7149. */
export async function startRedisCluster(): Promise<RedisClusterTopology> {
  const set = new ProcessSet();
  const base = await freeBlock(7100, 7149, 6, 10_000);
  const ports = Array.from({ length: 6 }, (_, i) => base + i);
  const dead = new Set<number>();
  try {
    for (const port of ports) {
      set.start(port, ['--port', String(port), ...COMMON, '--dir', set.dir, '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000', '--cluster-replica-validity-factor', '0']);
    }
    await waitFor(() => Promise.all(ports.map(answers)), (up) => up.every(Boolean), 10_000, 'the cluster nodes to answer');
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `${HOST}:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
  } catch (error) {
    await set.stop();
    throw error;
  }
  const topology: RedisClusterTopology = {
    nodes: ports.map((p) => `${HOST}:${p}`).join(','),
    ports,
    async masterOf(key) {
      const live = ports.find((p) => !dead.has(p))!;
      const slot = Number(await redisCli(live, 'cluster', 'keyslot', key));
      // CLUSTER NODES: "<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges…>"
      for (const line of (await redisCli(live, 'cluster', 'nodes')).split('\n')) {
        const [, address, flags, , , , , , ...ranges] = line.split(' ');
        if (!flags.includes('master') || flags.includes('fail') || dead.has(portOf(address))) continue;
        const served = ranges.some((range) => {
          const [lo, hi = lo] = range.split('-').map(Number);
          return slot >= lo && slot <= hi;
        });
        if (served) return portOf(address);
      }
      throw new Error(`no live master serves slot ${slot}`);
    },
    kill(port) {
      dead.add(port);
      set.kill(port);
    },
    async waitHealthy(timeoutMs = 20_000) {
      const live = ports.filter((p) => !dead.has(p));
      // Healthy once every live node says so and none still takes a killed node for a master of its slots.
      const view = (p: number) => Promise.all([redisCli(p, 'cluster', 'info'), redisCli(p, 'cluster', 'nodes')]).catch(() => ['', '']);
      await waitFor(
        () => Promise.all(live.map(view)),
        (views) =>
          views.every(([info, nodes]) => {
            if (!info.includes('cluster_state:ok')) return false;
            return nodes.split('\n').every((line) => {
              const [, address = '', flags = ''] = line.split(' ');
              return !(flags.includes('master') && dead.has(portOf(address)) && line.split(' ').length > 8);
            });
          }),
        timeoutMs,
        'every live cluster node to report cluster_state:ok with no killed master serving slots',
      );
    },
    stop: () => set.stop(),
  };
  await topology.waitHealthy();
  return topology;
}

export interface RedisSentinelTopology {
  /** The sentinels as `host:port,…`: REDIS_SENTINELS. */
  sentinels: string;
  /** The name the sentinels monitor the primary by: REDIS_SENTINEL_NAME. */
  name: string;
  primaryPort: number;
  replicaPort: number;
  /** The port the sentinels name as the primary now. */
  currentPrimary(): Promise<number>;
  /** SIGKILL one data node. */
  kill(port: number): void;
  stop(): Promise<void>;
}

/** A primary, one replica and 3 sentinels (quorum 2, down after 1 s). Ports in 7150–7199. */
export async function startRedisSentinelSet(): Promise<RedisSentinelTopology> {
  const set = new ProcessSet();
  const base = await freeBlock(7150, 7199, 5);
  const [primaryPort, replicaPort, ...sentinelPorts] = Array.from({ length: 5 }, (_, i) => base + i);
  const name = 'charge-once-main';
  const currentPrimary = async () => Number((await redisCli(sentinelPorts[0], 'sentinel', 'get-master-addr-by-name', name)).split('\n')[1]);
  try {
    set.start(primaryPort, ['--port', String(primaryPort), ...COMMON, '--dir', set.dir]);
    set.start(replicaPort, ['--port', String(replicaPort), ...COMMON, '--dir', set.dir, '--replicaof', HOST, String(primaryPort)]);
    for (const port of sentinelPorts) {
      // A sentinel rewrites its file as it learns the set: one writable file each.
      const file = join(set.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          `bind ${HOST}`,
          'protected-mode no',
          `dir ${set.dir}`,
          `sentinel monitor ${name} ${HOST} ${primaryPort} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      set.start(port, [file, '--sentinel']);
    }
    await waitFor(() => Promise.all([primaryPort, replicaPort, ...sentinelPorts].map(answers)), (up) => up.every(Boolean), 10_000, 'the sentinel set to answer');
    await waitFor(() => redisCli(replicaPort, 'info', 'replication'), (info) => info.includes('master_link_status:up'), 10_000, 'the replica to sync');
    // Every sentinel knows the replica and the other sentinels before anything is killed.
    await waitFor(
      () => Promise.all(sentinelPorts.map((p) => redisCli(p, 'sentinel', 'master', name))),
      (replies) => replies.every((r) => /num-slaves\n1\n/.test(r) && /num-other-sentinels\n2\n/.test(r)),
      15_000,
      'the sentinels to know the replica and each other',
    );
  } catch (error) {
    await set.stop();
    throw error;
  }
  return {
    sentinels: sentinelPorts.map((p) => `${HOST}:${p}`).join(','),
    name,
    primaryPort,
    replicaPort,
    currentPrimary,
    kill: (port) => set.kill(port),
    stop: () => set.stop(),
  };
}
