import { describe, expect, it } from 'vitest';
import { matchesSharedSecret } from './shared-secret.js';

describe('matchesSharedSecret', () => {
  const token = 'whk_token_0123456789abcdef';
  it.each<[string | undefined, string | undefined, boolean]>([
    [token, token, true],
    ['whk_token_0123456789abcdeX', token, false],
    [`${token}x`, token, false],
    ['', token, false],
    [undefined, token, false],
    [token, undefined, false],
    ['', '', false],
  ])('header %s against %s → %s', (header, expected, ok) => {
    expect(matchesSharedSecret(header, expected)).toBe(ok);
  });
});
