import { isUuid } from '@app/common';

const ID_ENVIO = /^[0-9a-f]{32}$/;

/**
 * The Pix transfer id (`idEnvio`, BACEN pattern `^[a-zA-Z0-9]{1,35}$`) of a payout attempt: its uuid without
 * dashes, lower case, 32 characters. Derived, never random, so every resend of an attempt carries the same id
 * and the provider can refuse to debit twice; and reversible, so a webhook or statement line names its attempt.
 */
export function idEnvioForAttempt(attemptId: string): string {
  if (!isUuid(attemptId)) throw new RangeError(`attempt id must be a uuid to derive an idEnvio, got "${attemptId}"`);
  return attemptId.replace(/-/g, '').toLowerCase();
}

/** The attempt an idEnvio names, or null when it is not one of ours (another system's transfer on the key). */
export function attemptIdFromIdEnvio(idEnvio: string): string | null {
  const value = idEnvio.toLowerCase();
  if (!ID_ENVIO.test(value)) return null;
  return `${value.slice(0, 8)}-${value.slice(8, 12)}-${value.slice(12, 16)}-${value.slice(16, 20)}-${value.slice(20)}`;
}
