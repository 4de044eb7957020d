import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { readBody, requestUrl, sendJson } from '../http-io.js';
import type { EfiEngine } from './efi-engine.js';
import { efiErrors } from './efi-errors.js';
import { sendPixRoute } from './efi-send-route.js';
import { transferView } from './efi-transfers.store.js';

const SEND_PATH = /^\/v3\/gn\/pix\/([^/]+)$/;
const LOOKUP_PATH = /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/;
const ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;

/** The Efí-imitating Pix API. Any error inside a route becomes a 500, never a crashed simulator. */
export function createEfiRouter(engine: EfiEngine): RequestListener {
  return (request, response) => {
    route(engine, request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, efiErrors.internal());
      else response.destroy();
    });
  };
}

async function route(engine: EfiEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = requestUrl(request);
  const method = request.method ?? 'GET';
  if (method === 'POST' && url.pathname === '/oauth/token') return tokenRoute(engine, request, response);

  const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!bearer || !engine.tokenIsValid(bearer)) {
    engine.count.requests.unauthorized += 1;
    return sendJson(response, 401, efiErrors.unauthorized());
  }
  const sendId = SEND_PATH.exec(url.pathname)?.[1];
  const lookupId = LOOKUP_PATH.exec(url.pathname)?.[1];
  const idEnvio = decodeURIComponent(sendId ?? lookupId ?? '');
  if ((sendId || lookupId) && !ID_ENVIO.test(idEnvio)) return sendJson(response, 400, efiErrors.invalid('idEnvio deve seguir ^[a-zA-Z0-9]{1,35}$'));
  if (method === 'PUT' && sendId) return sendPixRoute(engine, idEnvio, request, response);
  if (method === 'GET' && lookupId) return lookupRoute(engine, idEnvio, response);
  if (method === 'GET' && url.pathname === '/v2/gn/pix/enviados') return statementRoute(engine, url, response);
  sendJson(response, 404, efiErrors.unknownRoute(method, url.pathname));
}

async function tokenRoute(engine: EfiEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  await readBody(request);
  const expected = Buffer.from(`Basic ${Buffer.from(`${engine.config.clientId}:${engine.config.clientSecret}`).toString('base64')}`);
  const given = Buffer.from(request.headers.authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    engine.count.requests.unauthorized += 1;
    return sendJson(response, 401, efiErrors.invalidClient());
  }
  sendJson(response, 200, engine.issueToken());
}

/**
 * `GET /v2/gn/pix/enviados?inicio&fim&paginacao.paginaAtual&paginacao.itensPorPagina`: sent Pix requested in
 * [inicio, fim), oldest first, paged from page 0 (Efí's list shape: `parametros.paginacao` and `pix`).
 */
function statementRoute(engine: EfiEngine, url: URL, response: ServerResponse): void {
  const inicio = Date.parse(url.searchParams.get('inicio') ?? '');
  const fim = Date.parse(url.searchParams.get('fim') ?? '');
  if (Number.isNaN(inicio) || Number.isNaN(fim) || fim <= inicio) return sendJson(response, 400, efiErrors.invalid('inicio e fim devem ser datas RFC 3339, inicio antes de fim'));
  const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? '0');
  const size = Number(url.searchParams.get('paginacao.itensPorPagina') ?? '100');
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(size) || size < 1 || size > 1000) return sendJson(response, 400, efiErrors.invalid('paginacao invalida'));
  const fault = engine.faults.takeQueryFault();
  if (fault) {
    engine.countFault(`query_${fault}`);
    if (fault === 'hang') return engine.hangs.hold(response, engine.config.hangMs);
    return sendJson(response, fault === '429' ? 429 : 500, fault === '429' ? efiErrors.rateLimited() : efiErrors.internal());
  }
  // A page that does not say how many there are: a reader that assumes one has read only the first.
  const noPageCount = engine.faults.takeStatementFault(['no_page_count']) !== null;
  if (noPageCount) engine.countFault('statement_no_page_count');
  const { total, items } = engine.transfers.pageRequestedBetween(inicio, fim, page * size, size);
  const paginacao = { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: Math.ceil(total / size), quantidadeTotalDeItens: total };
  sendJson(response, 200, {
    parametros: {
      inicio: new Date(inicio).toISOString(),
      fim: new Date(fim).toISOString(),
      paginacao: noPageCount ? { paginaAtual: page, itensPorPagina: size } : paginacao,
    },
    pix: items.map(transferView),
  });
}

function lookupRoute(engine: EfiEngine, idEnvio: string, response: ServerResponse): void {
  engine.count.requests.lookups += 1;
  const fault = engine.faults.takeQueryFault();
  if (fault) {
    engine.countFault(`query_${fault}`);
    if (fault === 'hang') return engine.hangs.hold(response, engine.config.hangMs);
    return sendJson(response, fault === '429' ? 429 : 500, fault === '429' ? efiErrors.rateLimited() : efiErrors.internal());
  }
  const transfer = engine.transfers.get(idEnvio);
  if (!transfer) return sendJson(response, 404, efiErrors.notFound());
  sendJson(response, 200, transferView(transfer));
}
