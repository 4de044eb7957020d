import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EfiPixGateway, idEnvioForAttempt } from '@app/gateways';
import { readPixReturns, readSentPixPage } from '../libs/gateways/src/efi/efi-pix.response.js';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { PixSendBodySchema, PixSendDetailIdResponseSchema, PixSendListResponseSchema, PixSendResponseSchema } from 'sdk-node-apis-efi';

/**
 * Issue 35: the Efí simulator was written from our reading of the docs, the adapter from the same reading. Both are
 * held here to Efí's own published contract, the zod schemas the official `sdk-node-apis-efi` exports (a dev
 * dependency, never on the request path): what our adapter sends, what the simulator answers on every route the
 * adapter uses, and what our parsers make of an answer that Efí's schema says is valid, `devolucoes` included.
 */
describe('the Efí adapter and simulator against the official SDK schemas', () => {
  let efi: EfiSimulator;
  let adapter: EfiPixGateway;
  let token: string;

  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${efi.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const sent = async (amountCents: number) => {
    const attemptId = randomUUID();
    const idEnvio = idEnvioForAttempt(attemptId);
    const body = adapter.encodePixSend({ attemptId, amountCents, currency: 'brl', payeePixKey: 'payee@example.com.br', description: 'saque 42' });
    return { idEnvio, body, answer: await call('PUT', `/v3/gn/pix/${idEnvio}`, body) };
  };

  beforeAll(async () => {
    efi = await startEfiSimulator({ settleAfterMs: null });
    adapter = new EfiPixGateway({ apiBase: efi.apiUrl, clientId: 'efi_simulator_client', clientSecret: 'efi_simulator_secret', payerPixKey: 'payouts@charge-once.example', connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });
    const auth = Buffer.from('efi_simulator_client:efi_simulator_secret').toString('base64');
    const res = await fetch(`${efi.apiUrl}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' }, body: '{"grant_type":"client_credentials"}' });
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => efi?.close());

  it('sends a body PixSendBodySchema accepts, and the simulator answers it as PixSendResponseSchema says', async () => {
    const { body, answer } = await sent(1_234);
    expect(PixSendBodySchema.safeParse(JSON.parse(body)).error).toBeUndefined();
    expect(answer.status).toBe(201);
    expect(PixSendResponseSchema.safeParse(answer.json).error).toBeUndefined();
  });

  it('answers a send it declines as PixSendResponseSchema says (in progress), the refusal shown by the lookup', async () => {
    const attemptId = randomUUID();
    const idEnvio = idEnvioForAttempt(attemptId);
    efi.setFaults({ rules: [{ fault: 'decline', match: { idempotencyKey: idEnvio } }] });
    const body = adapter.encodePixSend({ attemptId, amountCents: 900, currency: 'brl', payeePixKey: 'payee@example.com.br' });
    const answer = await call('PUT', `/v3/gn/pix/${idEnvio}`, body);
    expect(answer.status).toBe(201);
    expect(PixSendResponseSchema.safeParse(answer.json).error).toBeUndefined();
    const found = await call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}`);
    expect(PixSendDetailIdResponseSchema.safeParse(found.json).error).toBeUndefined();
    expect(found.json.status).toBe('NAO_REALIZADO');
  });

  it('answers a lookup by idEnvio, settled and returned, as PixSendDetailIdResponseSchema says', async () => {
    const { idEnvio } = await sent(2_000);
    efi.settle(idEnvio, 'REALIZADO');
    efi.returnPix(idEnvio, 500);
    const found = await call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}`);
    expect(found.status).toBe(200);
    expect(PixSendDetailIdResponseSchema.safeParse(found.json).error).toBeUndefined();
    expect(found.json.devolucoes).toEqual([expect.objectContaining({ valor: '5.00' })]);
  });

  it('answers the sent-Pix list as PixSendListResponseSchema says, and our reader reads every line and return of it', async () => {
    const now = Date.now();
    const list = await call('GET', `/v2/gn/pix/enviados?inicio=${new Date(now - 3_600_000).toISOString()}&fim=${new Date(now + 60_000).toISOString()}`);
    expect(list.status).toBe(200);
    expect(PixSendListResponseSchema.safeParse(list.json).error).toBeUndefined();
    const read = readSentPixPage(list.json, 0);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.page.lines).toHaveLength((list.json.pix as unknown[]).length);
    expect(read.page.lines.flatMap((l) => l.returns.map((r) => r.amountCents))).toEqual([500]);
  });

  it('reads an answer Efí\'s schema calls valid, devolucoes included, and refuses a return the schema refuses', () => {
    const pix = {
      endToEndId: 'E09089356202612070101abcdef12345',
      idEnvio: idEnvioForAttempt(randomUUID()),
      valor: '100.00',
      chave: 'payouts@charge-once.example',
      status: 'REALIZADO',
      horario: { solicitacao: '2026-12-07T01:01:00.000Z', liquidacao: '2026-12-07T01:01:02.000Z' },
      favorecido: { chave: 'payee@example.com.br' },
      devolucoes: [
        { rtrId: 'D09089356202612080900abcdef12345', valor: '40.00', horario: '2026-12-08T09:00:00.000Z' },
        { rtrId: 'D09089356202612090900abcdef12345', valor: '60.00', horario: '2026-12-09T09:00:00.000Z' },
      ],
    };
    const page = { parametros: { inicio: '2026-12-07T00:00:00Z', fim: '2026-12-08T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 } }, pix: [pix] };
    expect(PixSendListResponseSchema.safeParse(page).error).toBeUndefined();
    const read = readSentPixPage(page, 0);
    expect(read).toMatchObject({ ok: true, page: { pages: 1, lines: [{ endToEndId: pix.endToEndId, amountCents: 10_000, outcome: 'succeeded' }] } });
    if (read.ok) {
      expect(read.page.lines[0].returns).toEqual([
        { rtrId: 'D09089356202612080900abcdef12345', amountCents: 4_000, returnedAt: new Date('2026-12-08T09:00:00.000Z') },
        { rtrId: 'D09089356202612090900abcdef12345', amountCents: 6_000, returnedAt: new Date('2026-12-09T09:00:00.000Z') },
      ]);
    }
    // A return without its rtrId: Efí's schema refuses it, and so does our reader (the whole page, never the money).
    const broken = { ...page, pix: [{ ...pix, devolucoes: [{ valor: '40.00', horario: '2026-12-08T09:00:00.000Z' }] }] };
    expect(PixSendListResponseSchema.safeParse(broken).success).toBe(false);
    expect(readSentPixPage(broken, 0).ok).toBe(false);
    expect(readPixReturns(undefined)).toEqual([]);
    expect(readPixReturns([{ rtrId: 'D1', valor: '1.5', horario: '2026-12-08T09:00:00Z' }])).toBeNull();
  });
});
