import { describe, expect, it } from 'vitest';
import { PayloadMismatchError } from './attempt-rules.errors.js';
import { assertSamePayload, payloadHash } from './canonical-payload.js';

const body = 'amount=4990&currency=brl&customer=cus_1&metadata[attempt_id]=att_1&metadata[charge_id]=chg_1';

describe('payloadHash', () => {
  const table: [string, string, string][] = [
    ['an empty body', '', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['ascii bytes', 'abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ];

  it.each(table)('hashes %s as sha256 hex', (_name, input, expected) => {
    expect(payloadHash(input)).toBe(expected);
  });

  it('hashes the utf-8 bytes of the text, not latin-1 or utf-16', () => {
    // 'é' is c3 a9 in UTF-8; its latin-1 byte e9 would hash to de2e331d...
    expect(payloadHash('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it('changes when only the field order changes: the provider sees different bytes', () => {
    expect(payloadHash('a=1&b=2')).not.toBe(payloadHash('b=2&a=1'));
  });
});

describe('assertSamePayload', () => {
  it('accepts the exact bytes first sent under the key', () => {
    expect(() => assertSamePayload(payloadHash(body), body)).not.toThrow();
  });

  const changed: [string, string][] = [
    ['a changed amount', body.replace('4990', '4991')],
    ['a trailing newline', `${body}\n`],
    ['reordered fields', body.split('&').reverse().join('&')],
  ];

  it.each(changed)('stops the send on %s with a payload_mismatch error', (_name, resent) => {
    const stored = payloadHash(body);
    let thrown: unknown;
    try {
      assertSamePayload(stored, resent);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PayloadMismatchError);
    expect(thrown).toMatchObject({ code: 'payload_mismatch', storedHash: stored, actualHash: payloadHash(resent) });
  });
});
