import { randomUUID } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EfiPixGateway, ProviderHttpClient, loadEfiClientCertificate, type EfiPixGatewaySettings, type ProviderTlsOptions, type SentPixLine } from '@app/gateways';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { makeTestCertificates, type TestCertificates } from './support/test-certificates.js';
import { waitFor } from './support/wait-for.js';

/**
 * The Efí adapter against the Efí simulator over HTTPS with mutual TLS: certificates are made at test time, and
 * the simulator only talks to callers holding a client certificate from the test CA.
 */
describe('Efí Pix adapter over mutual TLS', () => {
  let certs: TestCertificates;
  let sim: EfiSimulator;

  beforeAll(async () => {
    certs = makeTestCertificates();
    sim = await startEfiSimulator({
      hangMs: 2_000,
      tls: { key: certs.serverKey, cert: certs.serverCert, ca: certs.ca, requestCert: true, rejectUnauthorized: true },
    });
  });
  afterEach(async () => sim.reset());
  afterAll(async () => {
    await sim.close();
    certs.remove();
  });

  function gateway(overrides: Partial<EfiPixGatewaySettings> & { tls?: ProviderTlsOptions } = {}): EfiPixGateway {
    return new EfiPixGateway({
      apiBase: sim.apiUrl,
      clientId: 'efi_simulator_client',
      clientSecret: 'efi_simulator_secret',
      payerPixKey: 'payouts@charge-once.example',
      connectTimeoutMs: 1_000,
      readTimeoutMs: 400,
      tls: { ...loadEfiClientCertificate(certs.clientPemPath), ca: certs.ca },
      ...overrides,
    });
  }

  function newTransfer(efi: EfiPixGateway, amountCents = 1234, payeePixKey = 'payee@example.com.br') {
    const attemptId = randomUUID();
    const idEnvio = efi.transferIdFor(attemptId);
    const body = efi.encodePixSend({ attemptId, amountCents, currency: 'brl', payeePixKey, description: 'payout 42' });
    return { attemptId, idEnvio, body };
  }

  const debits = (idEnvio: string) => sim.stats().debitsByIdEnvio[idEnvio] ?? 0;

  it('is refused at the TLS handshake without a client certificate, or with one from another CA, and nothing reaches the API', async () => {
    for (const tls of [{ ca: certs.ca }, { ...loadEfiClientCertificate(certs.strangerPemPath), ca: certs.ca }]) {
      const efi = gateway({ tls });
      const { idEnvio, body } = newTransfer(efi);
      // No token without a trusted certificate, so the PUT never left: as safe to resend as a refused connection.
      expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'connect_failed', errorCode: expect.stringMatching(/^OAUTH_/) });
      expect(await efi.findTransfer(idEnvio)).toMatchObject({ kind: 'error' });
    }
    // At the transport level: TLS 1.3 shows the missing certificate as an alert after the client's handshake, which
    // still proves nothing was processed. A certificate from another CA ends in a bare reset, which proves nothing
    // either way, so it stays `no_response` (the safe reading: unknown, resolved by lookup).
    const put = (tls: ProviderTlsOptions) =>
      new ProviderHttpClient({ connectTimeoutMs: 1_000, readTimeoutMs: 1_000 }, tls).send({ method: 'PUT', url: `${sim.apiUrl}/v3/gn/pix/abc`, body: '{}' });
    expect(await put({ ca: certs.ca })).toMatchObject({ kind: 'connect_failed', errorCode: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' });
    expect(await put({ ...loadEfiClientCertificate(certs.strangerPemPath), ca: certs.ca })).toMatchObject({ kind: expect.stringMatching(/^(connect_failed|no_response)$/) });
    expect(sim.stats().requests).toMatchObject({ tokens: 0, sends: 0, lookups: 0, unauthorized: 0 });
    expect(sim.transfers()).toEqual([]);
  });

  it('sends a Pix with a cached OAuth token, and the lookup and the mTLS webhook report it REALIZADO', async () => {
    const received: Array<{ authorized: boolean; body: string }> = [];
    const receiver = https.createServer({ key: certs.serverKey, cert: certs.serverCert, ca: certs.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ authorized: (req.socket as TLSSocket).authorized, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    sim.configure({
      webhook: { url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/efi`, tls: { key: certs.clientKey, cert: certs.clientCert, ca: certs.ca } },
    });
    try {
      const efi = gateway();
      const { attemptId, idEnvio, body } = newTransfer(efi, 1234);
      expect(idEnvio).toMatch(/^[0-9a-f]{32}$/);
      expect(JSON.parse(body)).toEqual({ valor: '12.34', pagador: { chave: 'payouts@charge-once.example', infoPagador: 'payout 42' }, favorecido: { chave: 'payee@example.com.br' } });

      const sent = await efi.sendPix(idEnvio, body);
      expect(sent).toMatchObject({ kind: 'response', httpStatus: 201, providerOutcome: 'pending', error: null });
      const endToEndId = (sent as { providerChargeId: string }).providerChargeId;
      expect(endToEndId).toMatch(/^E\d{8}/);

      await waitFor(() => efi.findTransfer(idEnvio), (l) => l.kind === 'found' && l.charges[0].outcome === 'succeeded', 5_000, 'the Pix to settle');
      const found = await efi.findTransfer(idEnvio);
      expect(found).toMatchObject({ kind: 'found', consistent: true, charges: [{ providerChargeId: endToEndId, outcome: 'succeeded', amountCents: 1234, currency: 'brl', attemptId }] });

      await sim.webhooksIdle();
      expect(received).toHaveLength(1);
      expect(received[0].authorized).toBe(true);
      expect(JSON.parse(received[0].body)).toMatchObject({ pix: [{ endToEndId, status: 'REALIZADO', valor: '12.34', gnExtras: { idEnvio } }] });
      // One token served the send and both lookups.
      expect(sim.stats().requests.tokens).toBe(1);
      expect(debits(idEnvio)).toBe(1);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('fetches a new token when the cached one expires or is refused, and only then', async () => {
    const efi = gateway();
    const first = newTransfer(efi);
    await efi.sendPix(first.idEnvio, first.body);
    await efi.findTransfer(first.idEnvio);
    expect(sim.stats().requests.tokens).toBe(1);
    // The simulator forgets every token: the next call gets a 401, which drops the cached one.
    await sim.reset();
    expect(await efi.findTransfer(first.idEnvio)).toMatchObject({ kind: 'error', httpStatus: 401 });
    expect(await efi.findTransfer(first.idEnvio)).toMatchObject({ kind: 'not_found' });
    expect(sim.stats().requests.tokens).toBe(1);

    // A token that lives less than the safety margin is never cached.
    sim.configure({ tokenTtlS: 30 });
    const fresh = gateway();
    await fresh.findTransfer(first.idEnvio);
    await fresh.findTransfer(first.idEnvio);
    expect(sim.stats().requests.tokens).toBe(3);
  });

  it('reads a refused token on a send as a retryable failure to send (nothing executed), and the resend goes through', async () => {
    const efi = gateway();
    const { idEnvio, body } = newTransfer(efi);
    await efi.findTransfer(idEnvio);
    // The simulator forgets every token: the cached one is refused at authentication, before any execution.
    await sim.reset();
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'connect_failed', errorCode: 'OAUTH_TOKEN_REFUSED' });
    expect(sim.transfers()).toEqual([]);
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 201 });
    expect(debits(idEnvio)).toBe(1);
  });

  it('streams the sent-Pix statement of a window page by page, naming our attempts, and refuses to conclude from a failed page', async () => {
    const efi = gateway({ statementPageSize: 2 });
    const from = new Date(Date.now() - 1_000);
    const sent = [];
    for (const cents of [100, 200, 300, 400, 500]) {
      const t = newTransfer(efi, cents);
      expect(await efi.sendPix(t.idEnvio, t.body)).toMatchObject({ kind: 'response', httpStatus: 201 });
      sent.push(t);
    }
    const to = new Date(Date.now() + 1_000);
    const lines = [];
    for await (const line of efi.sentPixStatement(from, to)) lines.push(line);
    expect(lines.map((l) => l.attemptId).sort()).toEqual(sent.map((t) => t.attemptId).sort());
    expect(lines.map((l) => l.amountCents).sort((a, b) => a - b)).toEqual([100, 200, 300, 400, 500]);
    expect(lines.every((l) => l.currency === 'brl' && /^E\d{8}/.test(l.endToEndId))).toBe(true);
    const none = [];
    for await (const line of efi.sentPixStatement(new Date(to.getTime() + 60_000), new Date(to.getTime() + 120_000))) none.push(line);
    expect(none).toEqual([]);
    // Fault: a page fails once; it is asked again and the statement is whole.
    sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 1 }] });
    const again: SentPixLine[] = [];
    for await (const line of efi.sentPixStatement(from, to)) again.push(line);
    expect(again.map((l) => l.endToEndId)).toEqual(lines.map((l) => l.endToEndId));
    expect(sim.stats().faultsInjected.query_500).toBe(1);
    // A page that keeps failing: the statement throws instead of ending short.
    sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 4 }] });
    const partial: SentPixLine[] = [];
    await expect(async () => {
      for await (const line of efi.sentPixStatement(from, to)) partial.push(line);
    }).rejects.toMatchObject({ code: 'statement_unavailable' });
    expect(sim.stats().faultsInjected.query_500).toBe(5);
    expect(partial).toEqual([]);
  });

  it('loads a PKCS#12 client certificate as Efí hands it out', async () => {
    const efi = gateway({ tls: { ...loadEfiClientCertificate(certs.clientP12Path), ca: certs.ca } });
    const { idEnvio, body } = newTransfer(efi);
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 201 });
  });

  it('never sends the transfer when the client secret is wrong', async () => {
    const efi = gateway({ clientSecret: 'not-the-secret' });
    const { idEnvio, body } = newTransfer(efi);
    const result = await efi.sendPix(idEnvio, body);
    expect(result).toMatchObject({ kind: 'connect_failed', errorCode: 'OAUTH_OAUTH_REFUSED' });
    expect(JSON.stringify(result)).not.toContain('not-the-secret');
    expect(sim.stats().requests).toMatchObject({ sends: 0, unauthorized: 1 });
  });

  it("answers a repeated idEnvio as Efí documents (409 id_envio_duplicado), or as configured, never with a second debit", async () => {
    const efi = gateway();
    const { idEnvio, body } = newTransfer(efi, 500);
    const first = await efi.sendPix(idEnvio, body);
    const documented = { code: 'id_envio_duplicado', message: 'O id de envio informado já foi utilizado em outro pagamento' };
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 409, providerOutcome: null, error: documented });
    const other = efi.encodePixSend({ attemptId: randomUUID(), amountCents: 501, currency: 'brl', payeePixKey: 'payee@example.com.br' });
    expect(await efi.sendPix(idEnvio, other)).toMatchObject({ kind: 'response', httpStatus: 409, error: documented });

    // What else a repeat may get is undocumented: each is a knob, and none of them debits again.
    sim.configure({ duplicateIdEnvio: 'replay' });
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 200, providerChargeId: (first as { providerChargeId: string }).providerChargeId });
    expect(await efi.sendPix(idEnvio, other)).toMatchObject({ kind: 'response', httpStatus: 409, error: documented });
    sim.configure({ duplicateIdEnvio: 'refused_400' });
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 400, providerOutcome: null, error: documented });
    sim.configure({ duplicateIdEnvio: 'refused_422' });
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 422, providerOutcome: null, error: { code: 'pagamento_negado' } });
    expect(sim.stats()).toMatchObject({ idEnvioReplays: 1, idEnvioConflicts: 5, transfersCreated: 1 });
    expect(debits(idEnvio)).toBe(1);
  });

  it('times out after the provider executed, and the lookup finds the transfer; resending debits nothing more', async () => {
    const efi = gateway();
    const { attemptId, idEnvio, body } = newTransfer(efi, 2000);
    sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { idempotencyKey: idEnvio } }] });
    const result = await efi.sendPix(idEnvio, body);
    expect(result).toMatchObject({ kind: 'no_response', errorCode: 'READ_TIMEOUT' });
    expect(sim.stats().faultsInjected).toEqual({ hang_after_create: 1 });

    const found = await efi.findTransfer(idEnvio);
    expect(found).toMatchObject({ kind: 'found', charges: [{ attemptId, amountCents: 2000 }] });
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 409, error: { code: 'id_envio_duplicado' } });
    expect(debits(idEnvio)).toBe(1);
  });

  it('reads a 5xx before execution as a response the lookup then proves was not executed, and one after as executed', async () => {
    const efi = gateway();
    const before = newTransfer(efi);
    const after = newTransfer(efi);
    sim.setFaults({
      rules: [
        { fault: '500_before_create', match: { idempotencyKey: before.idEnvio } },
        { fault: '500_after_create', match: { idempotencyKey: after.idEnvio } },
      ],
    });
    expect(await efi.sendPix(before.idEnvio, before.body)).toMatchObject({ kind: 'response', httpStatus: 500, providerOutcome: null, error: { code: 'erro_interno_servidor' } });
    expect(await efi.sendPix(after.idEnvio, after.body)).toMatchObject({ kind: 'response', httpStatus: 500, providerOutcome: null });
    expect(sim.stats().faultsInjected).toEqual({ '500_before_create': 1, '500_after_create': 1 });
    expect(await efi.findTransfer(before.idEnvio)).toMatchObject({ kind: 'not_found', consistent: true });
    expect(await efi.findTransfer(after.idEnvio)).toMatchObject({ kind: 'found' });
    expect(debits(before.idEnvio)).toBe(0);
    expect(debits(after.idEnvio)).toBe(1);
  });

  it('reads a 429 as a response that executed nothing, and a failed lookup as proving nothing', async () => {
    const efi = gateway();
    const { idEnvio, body } = newTransfer(efi);
    sim.setFaults({ rules: [{ fault: '429', match: { idempotencyKey: idEnvio } }, { fault: '429', on: 'query' }, { fault: '500', on: 'query' }] });
    expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'response', httpStatus: 429, error: { code: 'limite_de_requisicoes' } });
    expect(await efi.findTransfer(idEnvio)).toMatchObject({ kind: 'error', httpStatus: 429 });
    expect(await efi.findTransfer(idEnvio)).toMatchObject({ kind: 'error', httpStatus: 500 });
    expect(await efi.findTransfer(idEnvio)).toMatchObject({ kind: 'not_found' });
    expect(sim.stats().faultsInjected).toEqual({ '429': 1, query_429: 1, query_500: 1 });
    expect(debits(idEnvio)).toBe(0);
  });

  it('reads a refused connection as never sent, with or without a cached token', async () => {
    const efi = gateway();
    const warm = newTransfer(efi);
    await efi.sendPix(warm.idEnvio, warm.body);
    await sim.refuseConnections();
    try {
      const { idEnvio, body } = newTransfer(efi);
      expect(await efi.sendPix(idEnvio, body)).toMatchObject({ kind: 'connect_failed', errorCode: 'ECONNREFUSED' });
      expect(await gateway().sendPix(idEnvio, body)).toMatchObject({ kind: 'connect_failed', errorCode: 'OAUTH_ECONNREFUSED' });
      expect(await efi.findTransfer(warm.idEnvio)).toMatchObject({ kind: 'error', httpStatus: null });
      expect(sim.stats().faultsInjected).toEqual({ refuse_connections: 1 });
      expect(debits(idEnvio)).toBe(0);
    } finally {
      await sim.acceptConnections();
    }
  });

  it('reports a transfer the provider refused (NAO_REALIZADO) as failed by lookup, its send having answered only EM_PROCESSAMENTO', async () => {
    const efi = gateway();
    const declined = newTransfer(efi);
    sim.setFaults({ rules: [{ fault: 'decline', match: { idempotencyKey: declined.idEnvio } }] });
    // As the official SDK's schema has it: the PUT answers a transfer in progress, never its refusal.
    expect(await efi.sendPix(declined.idEnvio, declined.body)).toMatchObject({ kind: 'response', httpStatus: 201, providerOutcome: 'pending' });
    expect(await efi.findTransfer(declined.idEnvio)).toMatchObject({ kind: 'found', charges: [{ outcome: 'failed' }] });
    expect(debits(declined.idEnvio)).toBe(0);

    sim.configure({ failPayeeKeys: ['closed-account@example.com.br'] });
    const bounced = newTransfer(efi, 700, 'closed-account@example.com.br');
    await efi.sendPix(bounced.idEnvio, bounced.body);
    await waitFor(() => efi.findTransfer(bounced.idEnvio), (l) => l.kind === 'found' && l.charges[0].outcome === 'failed', 5_000, 'the Pix to bounce');
  });

  it('refuses to encode a non-BRL amount or a fractional one before anything is sent', () => {
    const efi = gateway();
    expect(() => efi.encodePixSend({ attemptId: randomUUID(), amountCents: 100, currency: 'usd', payeePixKey: 'k' })).toThrow(/reais/);
    expect(() => efi.encodePixSend({ attemptId: randomUUID(), amountCents: 1.5, currency: 'brl', payeePixKey: 'k' })).toThrow(RangeError);
    expect(() => efi.transferIdFor('not-a-uuid')).toThrow(RangeError);
  });
});
