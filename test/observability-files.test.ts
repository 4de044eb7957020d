import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@app/simulator';
import { freePortNumber } from '../apps/bench/src/free-port.js';
import { waitFor } from './support/wait-for.js';

const ALERTS = 'deploy/observability/alerts.yml';
const DASHBOARD = 'deploy/observability/grafana-dashboard.json';
const ENTRIES = { api: 'dist/apps/api/src/main.js', worker: 'dist/apps/worker/src/main.js' };
/** Series Prometheus makes itself or that every scrape has: not ours to export. */
const PROMETHEUS_OWN = new Set(['up', 'time']);

/** Metric names in PromQL expressions: identifiers followed by `{`, `[`, `)` or space that are not functions or labels. */
function metricsNamedIn(expressions: string[]): Set<string> {
  const names = new Set<string>();
  for (const expr of expressions) {
    for (const match of expr.matchAll(/\b(charge_once_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+)\b/g)) names.add(match[1]);
  }
  return names;
}

/** Every series name a /metrics page can carry: a histogram's `_bucket`, `_sum` and `_count` too. */
function exportedNames(page: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of page.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

/**
 * The alert rules and the dashboard are files people load into Prometheus and Grafana; a metric renamed in code
 * would leave an alert that never fires. This starts the built api and worker as real processes, scrapes both as
 * Prometheus would, and checks that every metric a rule or a panel names is exported by one of them.
 */
describe('deploy/observability names only metrics the processes export', () => {
  let sim: Simulator;
  const children: ChildProcess[] = [];
  const pages: Record<'api' | 'worker', string> = { api: '', worker: '' };

  beforeAll(async () => {
    for (const entry of Object.values(ENTRIES)) if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does) first`);
    sim = await startSimulator();
    const ports = { api: await freePortNumber(), worker: await freePortNumber() };
    // The api serves its figures on its own metrics port only (no METRICS_TOKEN): its public port answers 404.
    const metricsPort = await freePortNumber();
    const env = {
      ...process.env,
      QUEUE_PREFIX: `obs-${randomUUID().slice(0, 8)}`,
      PORT: String(ports.api),
      WORKER_HTTP_PORT: String(ports.worker),
      METRICS_PORT: String(metricsPort),
      STRIPE_API_BASE: sim.apiUrl,
      STRIPE_SECRET_KEY: 'sk_test_simulator',
      API_TOKENS: `admin:obs-admin:${randomUUID()}`,
      LOG_LEVEL: 'silent',
    };
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const child = spawn(process.execPath, [entry], { env, stdio: 'ignore' });
      children.push(child);
      const url = `http://127.0.0.1:${ports[name as keyof typeof ports]}`;
      await waitFor(() => fetch(`${url}/health`).then((r) => r.status).catch(() => 0), (s) => s === 200, 30_000, `the ${name} /health`);
      if (name === 'api') expect((await fetch(`${url}/metrics`)).status).toBe(404);
      const scrape = name === 'api' ? `http://127.0.0.1:${metricsPort}/metrics` : `${url}/metrics`;
      pages[name as keyof typeof pages] = await (await fetch(scrape)).text();
    }
  }, 90_000);
  afterAll(async () => {
    const exited = children.filter((c) => c.exitCode === null).map((c) => new Promise((resolve) => c.once('exit', resolve)));
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(exited);
    await sim?.close();
  });

  it('exports every metric an alert rule names', () => {
    const rules = readFileSync(ALERTS, 'utf8');
    const expressions = [...rules.matchAll(/expr: (>\n(?: {10}.*\n)+|.*)/g)].map((m) => m[1]);
    expect(expressions.length).toBeGreaterThanOrEqual(8);
    const exported = new Set([...exportedNames(pages.api), ...exportedNames(pages.worker)]);
    const named = [...metricsNamedIn(expressions)];
    expect(named.length).toBeGreaterThanOrEqual(6);
    expect(named.filter((n) => !exported.has(n) && !PROMETHEUS_OWN.has(n))).toEqual([]);
  });

  it('exports every metric a dashboard panel draws', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    const exported = new Set([...exportedNames(pages.api), ...exportedNames(pages.worker)]);
    const missing = dashboard.panels.flatMap((p) => [...metricsNamedIn(p.targets.map((t) => t.expr))].filter((n) => !exported.has(n)).map((n) => `${p.title}: ${n}`));
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(12);
    expect(missing).toEqual([]);
  });

  it('catches a renamed metric (the check is not vacuous)', () => {
    const exported = new Set([...exportedNames(pages.api), ...exportedNames(pages.worker)]);
    expect(exported.has('charge_once_unknown_to_certainty_seconds_bucket')).toBe(true);
    expect(exported.has('charge_once_unknown_to_certainty_secs_bucket')).toBe(false);
  });
});
