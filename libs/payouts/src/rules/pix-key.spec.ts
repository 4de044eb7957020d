import { describe, expect, it } from 'vitest';
import { pixKeyProblem, type PixKeyType } from './pix-key.js';

describe('pixKeyProblem', () => {
  it.each<[PixKeyType, string, boolean]>([
    ['cpf', '12345678901', true],
    ['cpf', '123.456.789-01', false],
    ['cnpj', '12345678000199', true],
    ['cnpj', '1234567800019', false],
    ['cpf', '11111111111', false],
    ['cpf', '00000000000', false],
    ['cnpj', '00000000000000', false],
    ['cnpj', '99999999999999', false],
    ['email', 'payee@example.com.br', true],
    ['email', 'payee@', false],
    ['phone', '+5511987654321', true],
    ['phone', '11987654321', false],
    ['evp', '123e4567-e89b-12d3-a456-426614174000', true],
    ['evp', 'not-a-uuid', false],
  ])('a %s key "%s" is accepted: %s', (type, key, ok) => {
    const problem = pixKeyProblem(type, key);
    if (ok) expect(problem).toBeNull();
    else expect(problem).toMatch(new RegExp(`^pixKey: a ${type} key must be`));
  });
});
