import { describe, expect, it } from 'vitest';
import { parseApiTokensSetting } from './api-tokens.setting.js';

describe('parseApiTokensSetting', () => {
  it('reads the short form and the form naming a person or merchant', () => {
    expect(parseApiTokensSetting(' merchant:tok1, reviewer:alice:tok2,admin:ops.bob:tok3 ')).toEqual([
      { role: 'merchant', holder: null, token: 'tok1' },
      { role: 'reviewer', holder: 'alice', token: 'tok2' },
      { role: 'admin', holder: 'ops.bob', token: 'tok3' },
    ]);
  });

  it('is empty when unset', () => {
    expect(parseApiTokensSetting(undefined)).toEqual([]);
    expect(parseApiTokensSetting('')).toEqual([]);
  });

  it.each([
    ['owner:tok', /role must be/],
    ['reviewer:', /expected role:token/],
    ['reviewer:al ice:tok', /expected role:token/],
    ['reviewer:a:b:c', /expected role:token/],
  ])('refuses %s, naming the entry', (setting, message) => {
    expect(() => parseApiTokensSetting(setting)).toThrow(message);
  });
});
