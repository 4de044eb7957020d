import { describe, expect, it } from 'vitest';
import { mapEfiPixStatus } from './efi-pix-status.js';

describe('mapEfiPixStatus', () => {
  it.each<[unknown, string | null]>([
    ['EM_PROCESSAMENTO', 'pending'],
    ['REALIZADO', 'succeeded'],
    ['NAO_REALIZADO', 'failed'],
    ['realizado', null],
    ['DEVOLVIDO', null],
    [undefined, null],
    [3, null],
  ])('maps %j to %j', (status, outcome) => {
    expect(mapEfiPixStatus(status)).toBe(outcome);
  });
});
