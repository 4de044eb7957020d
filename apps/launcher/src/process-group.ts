import { type ChildProcess, spawn } from 'node:child_process';
import process from 'node:process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { say, tag, warn } from './terminal.js';

const STOP_TIMEOUT_MS = 15_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

interface Running {
  child: ChildProcess;
  exited: Promise<Exit>;
}

/** Something to stop after every child has stopped (an embedded database, say). */
export type StopHook = () => Promise<void>;

const describeExit = ({ code, signal, error }: Exit) => error?.message ?? (signal ? `signal ${signal}` : `exit code ${code}`);
const cleanExit = ({ code, signal }: Exit) => code === 0 || (signal !== null && (SIGNALS as readonly string[]).includes(signal)) || code === 130 || code === 143;

/**
 * The children of `npm start`, started and stopped together: if one service dies, the rest stop and the
 * launcher exits non-zero; Ctrl-C stops the app processes first, then what they call (simulator, Redis),
 * then the stop hooks.
 */
export class ProcessGroup {
  private readonly running = new Map<string, Running>();
  private readonly hooks: StopHook[] = [];
  private stopping = false;
  private lastSignalAt = 0;

  constructor(private readonly cwd: string) {}

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Ctrl-C reaches us twice under `npm start` (the terminal's and npm's): one press stops, a second later one kills. */
  handleSignals(): void {
    for (const signal of SIGNALS) {
      process.on(signal, () => {
        const now = Date.now();
        if (this.stopping && now - this.lastSignalAt > 1000) {
          warn('stopping now (killing what is left)');
          for (const { child } of this.running.values()) child.kill('SIGKILL');
        } else if (!this.stopping) {
          say(`${signal} received; stopping`);
          void this.shutdown(signal);
        }
        this.lastSignalAt = now;
      });
    }
  }

  onStop(hook: StopHook): void {
    this.hooks.unshift(hook);
  }

  /** Runs a one-shot step (build, migrate) to completion; throws when it fails. */
  async step(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
    const result = await this.launch(name, command, args, env).exited;
    if (result.code !== 0) throw new Error(`${name} failed (${describeExit(result)})`);
  }

  /** Starts a long-running child; if it ever exits while we are not stopping, everything stops. */
  service(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
    void this.launch(name, command, args, env).exited.then((result) => {
      if (this.stopping) return;
      warn(`${name} exited unexpectedly (${describeExit(result)}); stopping the others`);
      void this.shutdown('SIGTERM', 1);
    });
  }

  async shutdown(signal: NodeJS.Signals, exitCode?: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const callers = [...this.running.keys()].filter((name) => name !== 'simulator' && name !== 'redis');
    const cleanCallers = await this.stopGroup(callers, signal);
    const cleanRest = await this.stopGroup([...this.running.keys()], signal);
    let cleanHooks = true;
    for (const hook of this.hooks) {
      await hook().catch((error: unknown) => {
        cleanHooks = false;
        warn(`while stopping: ${(error as Error).message}`);
      });
    }
    process.exit(exitCode ?? (cleanCallers && cleanRest && cleanHooks ? 0 : 1));
  }

  private launch(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Running {
    const child = spawn(command, args, { cwd: this.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    prefixLines(child.stdout, process.stdout, name);
    prefixLines(child.stderr, process.stderr, name);
    const exited = new Promise<Exit>((resolve) => {
      child.once('error', (error) => resolve({ code: 127, signal: null, error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const entry = { child, exited };
    this.running.set(name, entry);
    void exited.then(() => this.running.delete(name));
    return entry;
  }

  private async stopGroup(names: string[], signal: NodeJS.Signals): Promise<boolean> {
    const entries = names.flatMap((name) => {
      const entry = this.running.get(name);
      return entry ? [{ name, ...entry }] : [];
    });
    for (const { child } of entries) child.kill(signal);
    const results = await Promise.all(
      entries.map(async ({ name, child, exited }) => {
        const timer = setTimeout(() => {
          warn(`${name} still running ${STOP_TIMEOUT_MS / 1000}s after ${signal}; killing it`);
          child.kill('SIGKILL');
        }, STOP_TIMEOUT_MS);
        const result = await exited;
        clearTimeout(timer);
        return result.signal !== 'SIGKILL' && cleanExit(result);
      }),
    );
    return results.every(Boolean);
  }
}

function prefixLines(stream: Readable, out: Writable, name: string): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${tag(name)} ${line}\n`));
}
