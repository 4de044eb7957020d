import pg from 'pg';
import { percentile, type ServiceProcess } from './bench-process.js';
import { databaseBackendsCpuSeconds } from './database-cpu.js';
import { startEventReceiver } from './event-receiver.js';

interface Drive {
  (url: string): Promise<{ seconds: number; failures: number }>;
}

/** CPU per charge (ms) of each process on the machine during one phase. */
interface PhaseCpu {
  api: number;
  worker: number;
  postgres: number;
  bench: number;
}

export interface EndpointComparison {
  rateWithout: number[];
  rateWith: number[];
  cpuWithout: PhaseCpu[];
  cpuWith: PhaseCpu[];
  lagMs: number[];
  events: number;
  duplicates: number;
  rejected: number;
  undelivered: number;
}

/**
 * The cost of merchant events on the submit path, measured in the same run: after the bench's own run (no endpoint),
 * the same load twice with the merchant's one endpoint enabled, then once with it disabled (A B B A). The
 * worker delivers to a local receiver that verifies every request with `standardwebhooks`; lag is the event's
 * `createdAt` (its transaction's start, so a little before its commit) to the receiver's first 2xx.
 */
export async function compareWithEndpoint(
  base: string,
  headers: Record<string, string>,
  databaseUrl: string,
  processes: { api: ServiceProcess; worker: ServiceProcess },
  drive: Drive,
  n: number,
  first: { rate: number; cpu: PhaseCpu },
): Promise<EndpointComparison> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const receiver = await startEventReceiver();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const created = await fetch(`${base}/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, description: 'bench receiver' }) });
    if (created.status !== 201) throw new Error(`POST /webhook-endpoints answered ${created.status}: ${await created.text()}`);
    const endpoint = (await created.json()) as { id: string; secret: string };
    receiver.trust(endpoint.secret);
    const setEnabled = async (enabled: boolean) => {
      const res = await fetch(`${base}/webhook-endpoints/${endpoint.id}`, { method: 'PATCH', headers, body: JSON.stringify({ enabled }) });
      if (res.status !== 200) throw new Error(`PATCH /webhook-endpoints answered ${res.status}`);
    };
    const cpu: Record<'with' | 'without', PhaseCpu[]> = { with: [], without: [] };
    const phase = async (kind: 'with' | 'without') => {
      const before = { api: processes.api.cpuSeconds(), worker: processes.worker.cpuSeconds(), postgres: databaseBackendsCpuSeconds(database), bench: process.cpuUsage() };
      const { seconds, failures } = await drive(base);
      if (failures > 0) throw new Error(`${failures} charges did not succeed`);
      const used = process.cpuUsage(before.bench);
      cpu[kind].push({
        api: (1000 * (processes.api.cpuSeconds() - before.api)) / n,
        worker: (1000 * (processes.worker.cpuSeconds() - before.worker)) / n,
        postgres: (1000 * (databaseBackendsCpuSeconds(database) - before.postgres)) / n,
        bench: (used.user + used.system) / 1000 / n,
      });
      return n / seconds;
    };
    // With, with, without after the first run without: A B B A, so a drift over the run falls on both sides alike.
    const with1 = await phase('with');
    const with2 = await phase('with');
    // Every delivery the run wrote, delivered (or a minute passed: then the count of those left is printed).
    const deadline = Date.now() + 60_000;
    let undelivered = Number.POSITIVE_INFINITY;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND state <> 'delivered'`, [endpoint.id]);
      undelivered = rows[0].n;
      if (undelivered === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    await setEnabled(false);
    const without = await phase('without');
    const { rows: total } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
    const received = [...receiver.events.values()];
    const lagMs = received.map((e) => e.firstReceivedAt - e.createdAt).sort((a, b) => a - b);
    return {
      rateWithout: [first.rate, without],
      rateWith: [with1, with2],
      cpuWithout: [first.cpu, ...cpu.without],
      cpuWith: cpu.with,
      lagMs,
      events: total[0].n,
      duplicates: received.filter((e) => e.deliveries > 1).length,
      rejected: receiver.rejected(),
      undelivered,
    };
  } finally {
    await db.end();
    await receiver.close();
  }
}

export function printEndpointComparison(r: EndpointComparison): void {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [without, withOne] = [mean(r.rateWithout), mean(r.rateWith)];
  console.log(
    `  with one webhook endpoint: ${withOne.toFixed(1)} charges/s (${r.rateWith.map((x) => x.toFixed(1)).join(', ')}) vs ${without.toFixed(1)} without ` +
      `(${r.rateWithout.map((x) => x.toFixed(1)).join(', ')}): ${((100 * withOne) / without).toFixed(1)} % of the rate without`,
  );
  const avg = (phases: PhaseCpu[], key: keyof PhaseCpu) => mean(phases.map((p) => p[key]));
  const line = (phases: PhaseCpu[]) => (['api', 'worker', 'postgres', 'bench'] as const).map((k) => `${k} ${avg(phases, k).toFixed(2)}`).join(' + ');
  console.log(`    CPU per charge (ms): with ${line(r.cpuWith)}; without ${line(r.cpuWithout)} (bench: clients, simulator and the receiver)`);
  const cell = (p: number) => (r.lagMs.length ? (percentile(r.lagMs, p) / 1000).toFixed(3) : '-');
  console.log(
    `  delivery lag (event created → receiver's 2xx, verified with standardwebhooks): p50 ${cell(50)} s, p90 ${cell(90)} s, p99 ${cell(99)} s, max ${cell(100)} s; ` +
      `${r.events} deliveries, ${r.lagMs.length} events received, ${r.duplicates} received more than once, ${r.rejected} refused signatures, ${r.undelivered} undelivered`,
  );
}
