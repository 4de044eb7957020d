import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptSender } from '@app/attempts';
import { EfiPixGateway } from '@app/gateways';
import { UnknownAttemptResolver } from '@app/resolution';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { attemptStatus, balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * A payout resent under its idEnvio after a first request that Efí did execute (a 429 from a proxy in front of a
 * request that got through). Whatever the resend is answered with (Efí documents 409 `id_envio_duplicado` for a
 * used id; a 400 or a 422 proves no less), it proves only that this request was refused, never that the first one
 * moved no money: the attempt is unknown, its reservation held, and a lookup settles it. No worker runs here, so
 * every send and lookup is the test's own call and nothing races it.
 */
describe('a resent idEnvio refused by the provider', () => {
  let efi: EfiSimulator;
  let stack: TestStack;

  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_500 });
    stack = await startTestStack({ efi, resolution: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  it.each<['refused_400' | 'refused_422' | 'conflict', number, string]>([
    ['refused_400', 400, 'id_envio_duplicado'],
    ['refused_422', 422, 'pagamento_negado'],
    ['conflict', 409, 'id_envio_duplicado'],
  ])('answered %s: unknown with the money held, then the lookup finds the executed transfer and debits it once', async (answer, httpStatus, nome) => {
    efi.configure({ duplicateIdEnvio: answer, settleAfterMs: null });
    const accountId = await fundedAccount(stack, 5_000);
    efi.setFaults({ rules: [{ fault: '429', times: 1 }] });
    const res = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).send(payoutBody(1_500));
    expect(res.status).toBe(201);
    const attemptId = res.body.attempts[0].id as string;
    const idEnvio = res.body.attempts[0].transferId as string;
    expect(res.body.attempts[0].status).toBe('pending');

    // The first request reached Efí after all and executed, with the exact bytes the attempt holds.
    const [{ payload }] = await stack.db.query<Array<{ payload: string }>>(`SELECT payload FROM attempts WHERE id = $1`, [attemptId]);
    const sender = new EfiPixGateway({ apiBase: efi.apiUrl, clientId: 'efi_simulator_client', clientSecret: 'efi_simulator_secret', payerPixKey: 'payouts@charge-once.example', connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });
    expect(await sender.sendPix(idEnvio, payload)).toMatchObject({ kind: 'response', httpStatus: 201 });
    const before = efi.stats();

    await stack.db.query(`UPDATE attempts SET next_send_at = now() WHERE id = $1`, [attemptId]);
    await stack.app.get(AttemptSender).send(attemptId, 'test');
    // The resend reached the simulator, which refused the reused idEnvio as configured, and debited nothing more.
    expect(efi.stats().requests.sends - before.requests.sends).toBe(1);
    expect(efi.stats().transfersCreated).toBe(before.transfersCreated);
    const [row] = await stack.db.query<Array<{ status: string; last_error: { httpStatus: number; code: string; reason: string } }>>(
      `SELECT status, last_error FROM attempts WHERE id = $1`,
      [attemptId],
    );
    expect(row.status).toBe('unknown');
    expect(row.last_error).toMatchObject({ httpStatus, code: nome });
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 1_500 });

    // A lookup by idEnvio finds the one transfer: the reservation becomes a debit, once.
    efi.settle(idEnvio, 'REALIZADO');
    expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toMatchObject({ action: 'apply', status: 'succeeded' });
    expect(await attemptStatus(stack, attemptId)).toBe('succeeded');
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 0 });
    expect(efi.stats().debitsByIdEnvio[idEnvio]).toBe(1);
  });
});
