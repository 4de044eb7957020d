import { startSimulator, type Simulator } from '@app/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StatementNotYetAvailableError } from '../statement.errors.js';
import { StripeGateway } from './stripe.gateway.js';

const DAY = Date.UTC(2026, 10, 20);
const HOUR = 3_600_000;

/** The itemized report is asked for only once the report type's data_available_end covers the interval. */
describe('Stripe report availability', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, controlPort: 0 });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const read = async () => {
    const gateway = new StripeGateway({ apiBase: sim.apiUrl, secretKey: 'sk_test_simulator', connectTimeoutMs: 500, readTimeoutMs: 1_000, reportPollMs: 10 });
    const lines = [];
    for await (const line of gateway.statement({ from: new Date(DAY), to: new Date(DAY + 25 * HOUR), source: 'report', requestKey: `k-${Math.random()}` })) lines.push(line);
    return lines;
  };

  it('waits, requesting no report, while data_available_end is before the interval end (the day plus its margin)', async () => {
    sim.plantCharges([{ amount: 700, created: (DAY + 12 * HOUR) / 1000 }]);
    sim.configure({ reportDataAvailableEnd: (DAY + 24 * HOUR) / 1000 });
    await expect(read()).rejects.toBeInstanceOf(StatementNotYetAvailableError);
    expect(sim.stats().requests).toMatchObject({ reportTypes: 1, reportRuns: 0, reportFiles: 0 });

    sim.configure({ reportDataAvailableEnd: (DAY + 25 * HOUR) / 1000 });
    expect((await read()).map((l) => l.amountCents)).toEqual([700]);
  });
});
