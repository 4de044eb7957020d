import type { GatewayCapabilities } from '@app/gateways';

export interface AbsenceProofInput {
  /** Whether the lookup that missed reads a strongly consistent list (`LookupResult.consistent`). */
  consistent: boolean;
  /** CONSISTENT_LOOKUP_GRACE_MS: how long the provider may still be executing a request it received. */
  consistentGraceMs: number;
  capabilities: Pick<GatewayCapabilities, 'consistencyWindowMs'>;
}

/**
 * How long after an attempt's last send ended a lookup that finds nothing first proves the charge absent
 * (DESIGN.md section 6). A strongly consistent list cannot miss a stored charge, so only the grace for a request
 * the provider may still be executing applies. A lagging search may miss one for its whole window while the provider
 * may also still be executing ours: the longer of the two. The decision to fail, the re-check under the row lock
 * and the moment the next lookup is asked all read this one rule, so none of them can disagree with another.
 */
export function absenceProvableAfterMs({ consistent, consistentGraceMs, capabilities }: AbsenceProofInput): number {
  return consistent ? consistentGraceMs : Math.max(consistentGraceMs, capabilities.consistencyWindowMs);
}
