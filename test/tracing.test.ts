import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@app/simulator';
import { freePortNumber } from '../apps/bench/src/free-port.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { FAST_TIMINGS } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const ENTRIES = { api: 'dist/apps/api/src/main.js', worker: 'dist/apps/worker/src/main.js' };
const SPAN_KIND_CLIENT = 3;

/**
 * The built api and worker run as real processes with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an in-memory
 * collector: what is proved is the production path (tracing started before the app loads, the instrumentations
 * patching pg and http under ESM, our spans, the OTLP export), not a test-only wiring.
 */
describe('tracing: one submit is one trace from the request to the provider call and back', () => {
  let sim: Simulator;
  let receiver: OtlpReceiver;
  const children: ChildProcess[] = [];
  const logLines: Array<Record<string, unknown>> = [];
  const token = `trace-${randomUUID()}`;
  let api = '';

  beforeAll(async () => {
    for (const entry of Object.values(ENTRIES)) if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does) first`);
    [sim, receiver] = await Promise.all([startSimulator({ port: 0, controlPort: 0 }), startOtlpReceiver()]);
    const ports = { api: await freePortNumber(), worker: await freePortNumber() };
    const env = {
      ...process.env,
      ...FAST_TIMINGS,
      QUEUE_PREFIX: `trace-${randomUUID().slice(0, 8)}`,
      PORT: String(ports.api),
      WORKER_HTTP_PORT: String(ports.worker),
      METRICS_PORT: '0',
      STRIPE_API_BASE: sim.apiUrl,
      STRIPE_SECRET_KEY: 'sk_test_simulator',
      API_TOKENS: `merchant:trace-merchant:${token}`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // The SDK's own setting: export every 100 ms rather than every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
      });
      const url = `http://127.0.0.1:${ports[name as keyof typeof ports]}`;
      await waitFor(() => fetch(`${url}/health`).then((r) => r.status).catch(() => 0), (s) => s === 200, 30_000, `the ${name} /health`);
    }
    api = `http://127.0.0.1:${ports.api}`;
  }, 90_000);

  afterAll(async () => {
    const exited = children.filter((c) => c.exitCode === null).map((c) => new Promise((resolve) => c.once('exit', resolve)));
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(exited);
    await Promise.all([sim?.close(), receiver?.close()]);
  });

  async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ id: string; status: string; attempts: Array<{ id: string; status: string; idempotencyKey: string }> }> {
    const res = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as never;
  }

  async function createAndSubmit(customerId: string, inboundKey: string): Promise<Awaited<ReturnType<typeof call>>> {
    const charge = await call('POST', '/charges', { orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'usd', customerId, paymentMethodId: 'pm_card_visa' }, { 'idempotency-key': inboundKey });
    return call('POST', `/charges/${charge.id}/submit`, undefined);
  }

  const spansOf = (traceId: string): ReceivedSpan[] => receiver.spans.filter((s) => s.traceId === traceId);
  const parentOf = (span: ReceivedSpan): ReceivedSpan | undefined => receiver.spans.find((s) => s.spanId === span.parentSpanId && s.traceId === span.traceId);
  const ancestorsOf = (span: ReceivedSpan): ReceivedSpan[] => {
    const chain: ReceivedSpan[] = [];
    for (let p = parentOf(span); p; p = parentOf(p)) chain.push(p);
    return chain;
  };

  it('nests the submit under the request, the provider call under the submit and the HTTP call under that', async () => {
    const inboundKey = `inbound-${randomUUID()}`;
    const submitted = await createAndSubmit(`cus_${randomUUID().slice(0, 12)}`, inboundKey);
    expect(submitted.status).toBe('succeeded');
    const attempt = submitted.attempts[0];

    const submit = await waitFor(async () => receiver.spans.find((s) => s.name === 'charge.submit' && s.attributes['charge_once.charge_id'] === submitted.id), Boolean, 10_000, 'the submit span');
    const trace = await waitFor(async () => spansOf(submit!.traceId), (spans) => spans.some((s) => s.parentSpanId === ''), 10_000, 'the whole trace');
    expect(submit!.service).toBe('charge-once-api');
    expect(submit!.attributes).toMatchObject({ 'charge_once.attempt_id': attempt.id, 'charge_once.provider': 'stripe' });

    // The root is the incoming HTTP request of POST /charges/:id/submit, an ancestor of our submit span.
    const root = trace.find((s) => s.parentSpanId === '')!;
    expect(ancestorsOf(submit!).at(-1)).toEqual(root);
    expect(String(root.attributes['http.target'] ?? root.attributes['url.path'])).toBe(`/charges/${submitted.id}/submit`);

    const create = trace.find((s) => s.name === 'provider.create')!;
    expect(create.parentSpanId).toBe(submit!.spanId);
    expect(create.attributes).toMatchObject({ 'charge_once.attempt_id': attempt.id, 'charge_once.provider': 'stripe', 'charge_once.operation': 'charge', 'charge_once.outcome': 'created', 'charge_once.attempt_status': 'succeeded' });
    const outgoing = trace.filter((s) => s.parentSpanId === create.spanId && s.kind === SPAN_KIND_CLIENT);
    expect(outgoing.map((s) => s.name)).toEqual(['POST']);

    // The database work of the request is in its trace, under the request.
    const queries = trace.filter((s) => s.name.startsWith('pg.query'));
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(ancestorsOf(query)).toContainEqual(root);

    // Neither our inbound key nor the attempt's idempotency key appears in any span of the trace.
    const values = trace.flatMap((s) => Object.values(s.attributes).map(String));
    expect(values.filter((v) => v.includes(inboundKey) || v.includes(attempt.idempotencyKey))).toEqual([]);

    // The sender's log line of that call names the trace.
    const line = logLines.find((l) => l.msg === 'provider call classified' && l.attemptId === attempt.id);
    expect(line).toMatchObject({ trace_id: submit!.traceId });
  });

  it('links the worker\'s resolution of an unknown attempt to the submit that left it unknown', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const submitted = await createAndSubmit(customerId, `inbound-${randomUUID()}`);
    const attempt = submitted.attempts[0];
    expect(attempt.status).toBe('unknown');
    const submit = await waitFor(async () => receiver.spans.find((s) => s.name === 'charge.submit' && s.attributes['charge_once.charge_id'] === submitted.id), Boolean, 10_000, 'the submit span');

    // Queuing the resolution is in the submit's trace (ioredis is instrumented), naming the command and no argument.
    const queued = spansOf(submit!.traceId).filter((s) => s.attributes['db.system.name'] === 'redis');
    expect(queued.map((s) => s.attributes['db.query.text'])).toContain('evalsha');
    const job = await waitFor(async () => receiver.spans.find((s) => s.name === 'attempt.resolution_job' && s.attributes['charge_once.attempt_id'] === attempt.id), Boolean, 15_000, 'the resolution job span');
    expect(job!.service).toBe('charge-once-worker');
    expect(job!.parentSpanId).toBe('');
    expect(job!.links.map((l) => l.traceId)).toEqual([submit!.traceId]);

    const resolve = await waitFor(async () => spansOf(job!.traceId).find((s) => s.name === 'attempt.resolve'), Boolean, 10_000, 'the resolve span');
    expect(resolve!.parentSpanId).toBe(job!.spanId);
    expect(resolve!.attributes['charge_once.decision']).toBe('apply');
    const lookup = await waitFor(async () => spansOf(job!.traceId).find((s) => s.name === 'provider.lookup'), Boolean, 10_000, 'the lookup span');
    expect(lookup!.parentSpanId).toBe(resolve!.spanId);
    expect(lookup!.attributes).toMatchObject({ 'charge_once.attempt_id': attempt.id, 'charge_once.outcome': 'found' });
    expect(spansOf(job!.traceId).some((s) => s.parentSpanId === lookup!.spanId && s.kind === SPAN_KIND_CLIENT)).toBe(true);
  });
});
