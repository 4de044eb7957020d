import { describe, expect, it } from 'vitest';
import { isRecord, isUuid, parseJson } from './unknown-value.guards.js';

describe('unknown value guards', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['x', false],
    [1, false],
  ])('isRecord(%j) is %s', (value, expected) => {
    expect(isRecord(value)).toBe(expected);
  });

  it.each([
    ['0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', true],
    ['0f8fad5bd9cb469fa16570867728950e', false],
    ['0f8fad5b-d9cb-469f-a165-70867728950e ', false],
    ["0f8fad5b-d9cb-469f-a165-70867728950e' OR 1=1", false],
    [null, false],
  ])('isUuid(%j) is %s', (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });

  it('parses JSON and answers undefined for anything else', () => {
    expect(parseJson('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJson('null')).toBeNull();
    expect(parseJson('<html>bad gateway</html>')).toBeUndefined();
    expect(parseJson('')).toBeUndefined();
  });
});
