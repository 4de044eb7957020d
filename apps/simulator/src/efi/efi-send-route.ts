import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson } from '@app/common';
import { readBody, sendJson } from '../http-io.js';
import { applyGateFault, type Reply } from '../gate-fault.reply.js';
import type { EfiEngine, NewTransfer } from './efi-engine.js';
import { efiErrors } from './efi-errors.js';
import { transferView } from './efi-transfers.store.js';

const VALOR = /^(0|[1-9]\d*)\.\d{2}$/;

/**
 * `PUT /v3/gn/pix/:idEnvio`, in the order a PSP would: gate faults (the request never reaches execution),
 * validation, the idEnvio check (a known idEnvio never debits again), then execution and its faults.
 */
export async function sendPixRoute(engine: EfiEngine, idEnvio: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  engine.count.requests.sends += 1;
  const raw = await readBody(request);
  const reply: Reply = (status, body) => sendJson(response, status, body);
  const facts = { customerId: null, attemptId: null, idempotencyKey: idEnvio };

  const gate = engine.faults.takeGateFault(facts);
  if (gate) {
    engine.countFault(gate);
    return applyGateFault(gate, { hangs: engine.hangs, hangMs: engine.config.hangMs }, response, reply, { rateLimited: efiErrors.rateLimited(), inProgress: efiErrors.inProgress() });
  }
  const input = readTransfer(idEnvio, raw);
  if ('error' in input) return reply(400, efiErrors.invalid(input.error));

  const existing = engine.transfers.get(idEnvio);
  if (existing) {
    const answer = existing.fingerprint === input.fingerprint ? engine.config.duplicateIdEnvio : 'conflict';
    if (answer === 'replay') {
      engine.count.idEnvioReplays += 1;
      return reply(200, transferView(existing));
    }
    engine.count.idEnvioConflicts += 1;
    if (answer === 'refused_400') return reply(400, efiErrors.duplicate());
    if (answer === 'refused_422') return reply(422, efiErrors.paymentDenied());
    return reply(409, efiErrors.duplicate());
  }
  if (engine.transfers.isInFlight(idEnvio)) return reply(409, efiErrors.inProgress());

  const fault = engine.faults.takeExecutionFault(facts);
  if (fault) engine.countFault(fault);
  switch (fault) {
    case '500_before_create':
      return reply(500, efiErrors.internal());
    case 'create_late':
      // Held past the client's read timeout and only then executed: the Pix leaves after the caller gave up.
      engine.transfers.markInFlight(idEnvio, true);
      engine.hangs.hold(response, engine.config.hangMs);
      engine.hangs.defer(engine.config.hangMs, () => {
        engine.transfers.markInFlight(idEnvio, false);
        engine.execute(input);
      });
      return;
    default:
      break;
  }
  const transfer = engine.execute(input, fault === 'decline');
  if (fault === '500_after_create') return reply(500, efiErrors.internal());
  if (fault === 'hang_after_create') return engine.hangs.hold(response, engine.config.hangMs);
  reply(201, transferView(transfer));
  if (fault === 'decline') engine.settle(idEnvio, 'NAO_REALIZADO');
}

function readTransfer(idEnvio: string, raw: string): NewTransfer | { error: string } {
  const body = parseJson(raw);
  if (body === undefined) return { error: 'o corpo da requisição não é JSON válido' };
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  const { valor, pagador, favorecido } = record(body);
  if (typeof valor !== 'string' || !VALOR.test(valor) || /^0\.00$/.test(valor)) return { error: 'valor deve ser uma string como "12.34", maior que zero' };
  const payer = record(pagador);
  const payee = record(favorecido);
  if (typeof payer.chave !== 'string' || payer.chave.length === 0) return { error: 'pagador.chave é obrigatório' };
  if (typeof payee.chave !== 'string' || payee.chave.length === 0) return { error: 'favorecido.chave é obrigatório' };
  const info = typeof payer.infoPagador === 'string' ? { infoPagador: payer.infoPagador } : {};
  // The same transfer is the same amount, payer and payee; the description does not move money.
  const fingerprint = createHash('sha256').update(JSON.stringify([valor, payer.chave, payee.chave])).digest('hex');
  return { idEnvio, valor, pagador: { chave: payer.chave, ...info }, favorecido: { chave: payee.chave }, fingerprint };
}
