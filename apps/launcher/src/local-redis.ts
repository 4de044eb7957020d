import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { portAnswers, waitForPort } from './ports.js';
import type { ProcessGroup } from './process-group.js';
import { say } from './terminal.js';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Redis cannot come from npm (no package ships a server binary that installs offline), so: the Redis at
 * REDIS_URL when it answers; else the machine's `redis-server`, started on that port with its data under
 * <dataDir>/redis; else one message with the two ways out.
 */
export async function provideRedis(env: NodeJS.ProcessEnv, dataDir: string, group: ProcessGroup): Promise<string> {
  const url = env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const parsed = new URL(url);
  const port = Number(parsed.port || 6379);
  if (await portAnswers(port, parsed.hostname.replace(/^\[|\]$/g, ''))) return url;

  const server = LOCAL_HOSTS.has(parsed.hostname) ? findOnPath('redis-server', env.PATH ?? '') : null;
  if (!server) {
    throw new Error(
      `nothing answers on ${url} and there is no redis-server to start. Either install Redis ` +
        '(`apt-get install redis-server`; npm start then starts it for you), or run everything with `docker compose up`',
    );
  }
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  say(`nothing answers on ${url}: starting ${server} on port ${port}, data in ${dir}`);
  group.service('redis', server, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '60 1', '--appendonly', 'no'], env);
  await waitForPort(port, 'redis-server', 10_000, () => group.isStopping);
  return url;
}

function findOnPath(binary: string, path: string): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, binary);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
