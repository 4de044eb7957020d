import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** dist/ root, from dist/apps/bench/src/ where this file runs. */
export const DIST = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Highest resident set size seen by sampling, in MiB; VmHWM is the kernel's own peak. */
  peakRssMiB(): number;
  /** Resident set size now, in MiB. */
  rssMiB(): number;
  /** User plus system CPU the process has used so far, in seconds (/proc/<pid>/stat). */
  cpuSeconds(): number;
  /** The system (kernel) part of cpuSeconds: on loopback, a socket write also pays the receiver's TCP processing. */
  systemCpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Starts a built app (`apps/api`, `apps/worker`, or a script under dist/) as its own process, sampling its memory.
 * `onLogLine` receives each line the process writes to stdout (its JSON log), instead of it being shown or dropped.
 */
export function startService(app: 'api' | 'worker' | { script: string }, env: Record<string, string>, nodeArgs: string[] = [], onLogLine?: (line: string) => void): ServiceProcess {
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles any bench's service processes: node refuses those flags in NODE_OPTIONS.
  // The api runs with the heap settings it runs with in production (README, Memory); BENCH_NODE_ARGS may override them.
  const args = [...(app === 'api' ? ['--max-semi-space-size=2', '--max-old-space-size=384'] : []), ...nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const script = typeof app === 'string' ? `${DIST}apps/${app}/src/main.js` : `${DIST}${app.script}`;
  const child = spawn(process.execPath, [...args, script], {
    // BENCH_LOG_LEVEL=info shows the service's own logs (e.g. a reconciliation run's time per step).
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', WORKER_HTTP_PORT: '0', METRICS_PORT: '0', API_RATE_LIMIT: '100000000', ...env },
    stdio: ['ignore', onLogLine ? 'pipe' : process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
  });
  if (onLogLine && child.stdout) createInterface({ input: child.stdout }).on('line', onLogLine);
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, readKiB(child.pid, 'VmRSS'))), 50);
  // Never what keeps the bench alive: chaos kills services with -9 without stop(), and the run must still exit.
  sampler.unref();
  return {
    child,
    peakRssMiB: () => Math.max(sampledPeak, readKiB(child.pid, 'VmHWM')) / 1024,
    rssMiB: () => readKiB(child.pid, 'VmRSS') / 1024,
    cpuSeconds: () => readCpuSeconds(child.pid, 'user+system'),
    systemCpuSeconds: () => readCpuSeconds(child.pid, 'system'),
    stop: () =>
      new Promise((resolve) => {
        clearInterval(sampler);
        // Stopped twice, or killed by a signal: exitCode stays null but the process is gone.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function readKiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  if (!pid) return 0;
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

export function readCpuSeconds(pid: number | undefined, part: 'user+system' | 'system'): number {
  if (!pid) return 0;
  try {
    // The command name (field 2) may hold spaces: count fields from the ')' that closes it; utime, stime are 14, 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((part === 'system' ? 0 : Number(fields[11])) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

export async function waitForHealth(baseUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${baseUrl}/health did not answer within ${timeoutMs} ms`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function intArg(name: string, fallback: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = flag ? Number(flag.split('=')[1]) : Number(process.env[`BENCH_${name.toUpperCase()}`] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}
