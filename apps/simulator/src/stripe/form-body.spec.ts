import { describe, expect, it } from 'vitest';
import { formString, parseFormBody } from './form-body.js';

describe('parseFormBody', () => {
  it('decodes flat and bracketed keys into nested objects', () => {
    expect(parseFormBody('amount=500&currency=usd&metadata[charge_id]=c1&metadata[attempt_id]=a1')).toEqual({
      amount: '500',
      currency: 'usd',
      metadata: { charge_id: 'c1', attempt_id: 'a1' },
    });
  });

  it('decodes percent-encoded brackets and values, and + as a space', () => {
    expect(parseFormBody('metadata%5Bnote%5D=a%26b+c')).toEqual({ metadata: { note: 'a&b c' } });
  });

  it('builds arrays from empty brackets', () => {
    expect(parseFormBody('expand[]=a&expand[]=b')).toEqual({ expand: ['a', 'b'] });
  });

  it('supports deeper nesting', () => {
    expect(parseFormBody('a[b][c]=1')).toEqual({ a: { b: { c: '1' } } });
  });

  it('ignores keys that would pollute prototypes', () => {
    parseFormBody('__proto__[polluted]=1&a[constructor][x]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns an empty object for an empty body', () => {
    expect(parseFormBody('')).toEqual({});
  });
});

describe('formString', () => {
  const form = parseFormBody('customer=cus_1&metadata[attempt_id]=a1');

  it('reads top-level and nested strings', () => {
    expect(formString(form, 'customer')).toBe('cus_1');
    expect(formString(form, 'metadata', 'attempt_id')).toBe('a1');
  });

  it('returns null for absent keys and for objects', () => {
    expect(formString(form, 'metadata', 'charge_id')).toBeNull();
    expect(formString(form, 'metadata')).toBeNull();
    expect(formString(form, 'customer', 'x')).toBeNull();
  });
});
