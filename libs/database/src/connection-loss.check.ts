/**
 * Whether an error means the database could not be reached or dropped the connection, rather than refusing a
 * statement: what a restart, a failover or a proxy with no server to give looks like from `pg`. Such an error says
 * nothing about the request itself; the same request can be made again once a primary answers.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATE class 08 (connection exception), 57P01-57P03 (shutting down, crashed, not yet accepting), 53300 (too
// many connections: a proxy's pool full), 25006 (a write reaching a standby that is not promoted yet).
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|25006)$/;

const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 4; e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
