import { describe, expect, it } from 'vitest';
import { decodeBody, jsonDepthAbove, refusedQueryParameter, unstorableStringAt } from './request-text.checks.js';

describe('request text checks', () => {
  it.each([
    ['{"a":[1,2,{"b":3}]}', 3, false],
    ['{"a":[1,2,{"b":3}]}', 2, true],
    ['{"a":"[[[[[[[[[["}', 2, false],
    ['{"a":"\\\\"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['[[[]]]', 3, false],
    ['[[[[]]]]', 3, true],
  ])('measures the nesting of %s against %i outside strings', (text, limit, above) => {
    expect(jsonDepthAbove(text, limit)).toBe(above);
  });

  it('refuses ill-formed UTF-8 and deep bodies, and passes any well-formed text', () => {
    expect(decodeBody(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))).toEqual({ problem: 'the body is not well-formed UTF-8' });
    expect(decodeBody(Buffer.from('['.repeat(33) + ']'.repeat(33)))).toEqual({ problem: 'the body nests deeper than 32 levels' });
    expect(decodeBody(Buffer.from('{"orderId":"pedido-ü-😀"}'))).toEqual({ text: '{"orderId":"pedido-ü-😀"}' });
  });

  it.each([
    [{ orderId: 'a\u0000b' }, 'orderId'],
    [{ items: [{ name: 'ok' }, { name: 'x\ud800' }] }, 'items[1].name'],
    [{ ['k\u0000']: 1 }, 'k\u0000'],
    ['\udc00', 'body'],
    [{ orderId: 'fine 😀', n: 1, ok: true, none: null }, null],
  ])('finds the first string no column could hold in %j', (value, at) => {
    expect(unstorableStringAt(value)).toBe(at);
  });

  it('names the query parameter whose escapes are not UTF-8 or that holds a NUL', () => {
    expect(refusedQueryParameter('/x?query=a%C3%28b&limit=2', { query: 'a\ufffd(b', limit: '2' })).toBe('query');
    expect(refusedQueryParameter('/x?limit=2&query=a%00b', { limit: '2', query: 'a\u0000b' })).toBe('query');
    expect(refusedQueryParameter('/x?query=%C3%BC+x', { query: 'ü x' })).toBeNull();
    expect(refusedQueryParameter('/x', {})).toBeNull();
  });
});
