import process from 'node:process';

/** Output for people: every line tagged with the process it came from, coloured on a terminal. */
const COLORS: Record<string, number> = { start: 1, build: 90, migrate: 35, simulator: 33, api: 36, worker: 32, postgres: 34, redis: 31 };

const colored = process.stdout.isTTY && !process.env.NO_COLOR;

export function tag(name: string): string {
  return colored ? `\x1b[${COLORS[name] ?? 0}m[${name}]\x1b[0m` : `[${name}]`;
}

export function say(message: string): void {
  process.stdout.write(`${tag('start')} ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${tag('start')} ${message}\n`);
}

/** Where a URL points, without its password. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
