import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './connection-loss.check.js';

const withCode = (code: string) => Object.assign(new Error('x'), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['an admin shutdown (57P01)', withCode('57P01')],
    ['a crash shutdown (57P02)', withCode('57P02')],
    ['a server still starting (57P03)', withCode('57P03')],
    ['a proxy that lost its server (08P01)', withCode('08P01')],
    ['a write that reached a standby (25006)', withCode('25006')],
    ['a full pool (53300)', withCode('53300')],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg-pool: timeout exceeded when trying to connect', new Error('timeout exceeded when trying to connect')],
    ['a TypeORM QueryFailedError around a 57P01', Object.assign(new Error('q'), { driverError: withCode('57P01') })],
    ['an error caused by a lost connection', new Error('wrapped', { cause: withCode('ECONNRESET') })],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a serialization failure', withCode('40001')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
