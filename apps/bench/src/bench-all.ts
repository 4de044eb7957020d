import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DIST } from './bench-process.js';

/**
 * `npm run bench`: runs every `bench:*` script of package.json one after the other (they share the machine, so
 * never together), shows each one's output as it goes, then prints one table: the script, how it ended, how
 * long it took, and the last line it printed (each bench ends on its headline figure).
 */
interface Row {
  script: string;
  status: string;
  seconds: number;
  headline: string;
}

const root = `${DIST}../`;
const scripts = Object.keys((JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts)
  .filter((name) => name.startsWith('bench:'))
  .sort();
const rows: Row[] = [];
for (const script of scripts) {
  console.log(`\n=== npm run ${script}`);
  rows.push(await runScript(script));
}

console.log('\nbench summary');
const width = Math.max(...rows.map((r) => r.script.length), 6);
console.log(`${'script'.padEnd(width)}  ${'status'.padEnd(8)} ${'time'.padStart(7)}  last line`);
for (const row of rows) console.log(`${row.script.padEnd(width)}  ${row.status.padEnd(8)} ${`${row.seconds.toFixed(0)} s`.padStart(7)}  ${row.headline}`);
process.exitCode = rows.every((r) => r.status === 'ok') ? 0 : 1;

function runScript(script: string): Promise<Row> {
  const started = performance.now();
  return new Promise((resolve) => {
    // npm's own CLI with this Node when npm started us (no shell, no PATH lookup), else `npm` from PATH.
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm, 'run', script, '--silent']] : ['npm', ['run', script, '--silent']];
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let last = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = chunk.toString().split('\n').map((l) => l.trim()).filter(Boolean);
      if (lines.length) last = lines[lines.length - 1];
    });
    child.once('exit', (code, signal) =>
      resolve({ script, status: code === 0 ? 'ok' : signal ? `killed ${signal}` : `exit ${code}`, seconds: (performance.now() - started) / 1000, headline: last.slice(0, 140) }),
    );
  });
}
