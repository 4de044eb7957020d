import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptIdFromIdEnvio, idEnvioForAttempt } from './efi-id-envio.js';

const BACEN_ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;

describe('idEnvioForAttempt', () => {
  it.each([
    ['3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6f', '3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f'],
    ['3F2A9C1D-0B4E-4C8A-9D7E-1A2B3C4D5E6F', '3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f'],
    ['00000000-0000-0000-0000-000000000000', '00000000000000000000000000000000'],
  ])('turns %s into %s', (attemptId, idEnvio) => {
    expect(idEnvioForAttempt(attemptId)).toBe(idEnvio);
  });

  it.each(['', 'not-a-uuid', '3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f', '3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6', '3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6g'])(
    'refuses %j: an id that is not an attempt uuid would not be reversible',
    (attemptId) => {
      expect(() => idEnvioForAttempt(attemptId)).toThrow(RangeError);
    },
  );

  it('always gives 32 characters the BACEN pattern accepts, and reverses to the attempt id', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        const idEnvio = idEnvioForAttempt(uuid);
        expect(idEnvio).toHaveLength(32);
        expect(idEnvio).toMatch(BACEN_ID_ENVIO);
        expect(attemptIdFromIdEnvio(idEnvio)).toBe(uuid.toLowerCase());
      }),
    );
  });
});

describe('attemptIdFromIdEnvio', () => {
  it.each([
    ['3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f', '3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6f'],
    ['3F2A9C1D0B4E4C8A9D7E1A2B3C4D5E6F', '3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6f'],
    ['E2E123', null],
    ['3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6fz', null],
    ['zz2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f', null],
    ['', null],
  ])('reads %j as %j', (idEnvio, attemptId) => {
    expect(attemptIdFromIdEnvio(idEnvio)).toBe(attemptId);
  });
});
