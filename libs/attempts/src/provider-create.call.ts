import type { AttemptEntity } from '@app/database';
import type { ProviderPorts, GatewayCallResult } from '@app/gateways';
import { inSpan } from '@app/observability';
import { createAtProvider } from './attempt.operations.js';
import { classifyGatewayResponse, type AttemptOutcome } from './rules/classify-gateway-response.js';

/**
 * One create call at the provider and what its answer proves, in a span naming the attempt, the provider and the
 * classified outcome (never the key, the payload or a secret). `claimed` counts this send: above 1, the same key
 * went out before.
 */
export function createAndClassify(gateway: ProviderPorts, attempt: AttemptEntity, claimed: number): Promise<{ result: GatewayCallResult; outcome: AttemptOutcome }> {
  const attributes = { 'charge_once.attempt_id': attempt.id, 'charge_once.provider': attempt.provider, 'charge_once.operation': attempt.operation, 'charge_once.http_attempt': claimed };
  return inSpan('provider.create', attributes, async (span) => {
    const result = await createOrUnknown(gateway, attempt);
    const outcome = classifyGatewayResponse(result, { resend: claimed > 1 });
    span.setAttributes({ 'charge_once.outcome': outcome.reason, 'charge_once.attempt_status': outcome.status });
    return { result, outcome };
  });
}

async function createOrUnknown(gateway: ProviderPorts, attempt: AttemptEntity): Promise<GatewayCallResult> {
  try {
    return await createAtProvider(gateway, attempt);
  } catch (error) {
    // An adapter that throws may have sent the request: that is an unknown outcome, not a failure.
    return { kind: 'no_response', errorCode: 'adapter_error', message: (error as Error).message, durationMs: 0 };
  }
}
