#!/usr/bin/env node
// `npm start`: builds when dist/ is stale, then hands over to the typed launcher it just built
// (apps/launcher/src/main.ts). Plain Node with no dependencies, because it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STAMP = join(ROOT, 'dist', '.build-stamp');
const LAUNCHER = join(ROOT, 'dist', 'apps', 'launcher', 'src', 'main.js');
const BUILT = ['apps/api/src/main.js', 'apps/worker/src/main.js', 'libs/database/src/cli/migrate.js', 'apps/launcher/src/main.js'];

function newestSourceMtime() {
  let newest = 0;
  const visit = (dir) => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        if (item.name !== 'node_modules') visit(path);
      } else if ((item.name.endsWith('.ts') && !item.name.endsWith('.spec.ts')) || dir.endsWith('console')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const dir of ['apps', 'libs', 'migrations']) if (existsSync(join(ROOT, dir))) visit(join(ROOT, dir));
  for (const file of ['tsconfig.json', 'tsconfig.build.json']) {
    if (existsSync(join(ROOT, file))) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  }
  return newest;
}

function buildReason() {
  if (!existsSync(STAMP)) return 'no record of a previous build';
  const missing = BUILT.find((file) => !existsSync(join(ROOT, 'dist', file)));
  if (missing) return `dist/${missing} is missing`;
  if (newestSourceMtime() > statSync(STAMP).mtimeMs) return 'sources changed since the last build';
  return null;
}

/** npm's own CLI script, run with this Node, so no shell and no PATH lookup is involved. */
function npmCli() {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv && /npm-cli\.js$/.test(fromEnv)) return fromEnv;
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('cannot find npm; run `npm run build` once, then `npm start` again');
  return found;
}

const reason = buildReason();
if (reason) {
  process.stdout.write(`[start] building (${reason})\n`);
  // Stamped with the time the build started, so a file saved during the build still triggers the next one.
  const startedAt = new Date();
  const build = spawnSync(process.execPath, [npmCli(), 'run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    process.stderr.write(`[start] build failed (${build.signal ? `signal ${build.signal}` : `exit code ${build.status}`})\n`);
    process.exit(1);
  }
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
} else {
  process.stdout.write('[start] build is up to date\n');
}
await import(pathToFileURL(LAUNCHER).href);
