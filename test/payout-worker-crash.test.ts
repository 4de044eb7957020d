import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity } from '@app/database';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { DEAD_SENDER_TIMINGS, killNine, recoverAfterDeadSender, spawnWorker } from './support/dead-sender.js';
import { waitFor } from './support/wait-for.js';

/**
 * A real worker process, killed with SIGKILL while its Pix send is on the wire (after the provider executed it).
 * The payout's money stays reserved through the crash; the sweeper and resolver settle it to one debit.
 */
describe('kill -9 of a worker in the middle of a Pix send', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let worker: ChildProcess | null = null;
  const queuePrefix = `payout-crash-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 20_000 });
    // This process runs no processors: only the spawned worker consumes the send queue.
    stack = await startTestStack({ queuePrefix, resolution: true, efi, env: DEAD_SENDER_TIMINGS });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack.close();
    await efi.close();
  });

  it('leaves the reservation held and a lease behind; the sweeper makes it unknown, the lookup finds the one Pix, and it is debited once', async () => {
    const accountId = await fundedAccount(stack, 10_000);
    // The first send is rate limited (nothing executed), so the retry is the worker's; that retry hangs after executing.
    efi.setFaults({ rules: [{ fault: '429' }, { fault: 'hang_after_create' }] });
    const res = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).send(payoutBody(6_000));
    expect(res.status).toBe(201);
    const attemptId = res.body.attempts[0].id as string;
    const idEnvio = res.body.attempts[0].transferId as string;
    expect(res.body.attempts[0].status).toBe('pending');
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 4_000, reservedCents: 6_000 });

    worker = spawnWorker(stack, queuePrefix, { EFI_API_BASE: efi.apiUrl, EFI_CLIENT_ID: 'efi_simulator_client', EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'payouts@charge-once.example' });
    await waitFor(async () => efi.stats().hangingConnections, (n) => n === 1, 20_000, 'the worker to be stuck in its Pix send');
    expect(efi.stats().faultsInjected).toMatchObject({ '429': 1, hang_after_create: 1 });
    const claimed = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
    expect(claimed).toMatchObject({ status: 'pending', httpAttempts: 2 });

    await killNine(worker);
    // The money is still held: the Pix may have left (it did), so it is neither spendable nor released.
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 4_000, reservedCents: 6_000 });

    await recoverAfterDeadSender(stack, attemptId);

    const view = await stack.http.get(`/payouts/${res.body.id}`).set(stack.auth('merchant'));
    expect(view.body.status).toBe('succeeded');
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 4_000, reservedCents: 0 });
    // The 429'd send and the worker's send; nothing after the crash; one debit at the provider.
    expect(efi.stats().requests.sends).toBe(2);
    expect(efi.stats().debitsByIdEnvio[idEnvio]).toBe(1);
    const transitions = await stack.db.query<Array<{ t: string }>>(
      `SELECT coalesce(from_status, 'new') || '→' || to_status || ':' || cause AS t FROM attempt_transitions WHERE attempt_id = $1 ORDER BY at, id`,
      [attemptId],
    );
    expect(transitions.map((r) => r.t)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→succeeded:resolver']);
  });
});
