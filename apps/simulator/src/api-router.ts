import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { routeAsaas } from './asaas/asaas-router.js';
import { requestUrl, sendJson } from './http-io.js';
import type { SimulatorEngine } from './simulator-engine.js';
import { stripeErrors } from './stripe/stripe-errors.js';
import { routeStripe } from './stripe/stripe-router.js';

/**
 * The providers' API port: Asaas under /v3, Stripe elsewhere. One port, so refusing connections refuses both
 * providers at once. Any error inside a route becomes a 500, never a crashed simulator.
 */
export function createApiRouter(engine: SimulatorEngine): RequestListener {
  return (request, response) => {
    route(engine, request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, stripeErrors.apiError());
      else response.destroy();
    });
  };
}

async function route(engine: SimulatorEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (requestUrl(request).pathname.startsWith('/v3/')) return routeAsaas(engine.asaas, request, response);
  return routeStripe(engine.stripe, request, response);
}
