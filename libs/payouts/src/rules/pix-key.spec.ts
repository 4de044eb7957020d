import { describe, expect, it } from 'vitest';
import { pixKeyProblem, type PixKeyType } from './pix-key.js';

describe('pixKeyProblem', () => {
  it.each<[PixKeyType, string, boolean]>([
    ['cpf', '12345678909', true],
    ['cpf', '52998224725', true],
    // One digit mistyped, or the check digits wrong: a Pix to nobody.
    ['cpf', '12345678901', false],
    ['cpf', '52998224726', false],
    ['cpf', '123.456.789-09', false],
    ['cnpj', '11222333000181', true],
    ['cnpj', '04252011000110', true],
    ['cnpj', '11222333000182', false],
    ['cnpj', '1122233300018', false],
    ['cpf', '11111111111', false],
    ['cpf', '00000000000', false],
    ['cnpj', '00000000000000', false],
    ['cnpj', '99999999999999', false],
    ['email', 'payee@example.com.br', true],
    ['email', "o'neil+pix@example.com", true],
    ['email', 'payee@', false],
    ['email', 'Payee@Example.com', false],
    ['email', 'payee@localhost', false],
    ['email', `${'a'.repeat(66)}@example.com`, false],
    ['phone', '+5511987654321', true],
    ['phone', '+551133334444', true],
    ['phone', '11987654321', false],
    ['phone', '+14155552671', false],
    ['phone', '+5501987654321', false],
    ['evp', '123e4567-e89b-12d3-a456-426614174000', true],
    ['evp', 'not-a-uuid', false],
  ])('a %s key "%s" is accepted: %s', (type, key, ok) => {
    const problem = pixKeyProblem(type, key);
    if (ok) expect(problem).toBeNull();
    else expect(problem).toMatch(new RegExp(`^pixKey: a ${type} key must be`));
  });
});
