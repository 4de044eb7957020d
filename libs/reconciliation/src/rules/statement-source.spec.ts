import { describe, expect, it } from 'vitest';
import { statementSourceFor } from './statement-source.js';

describe('statementSourceFor', () => {
  it('reads the configured statement when the provider offers it', () => {
    expect(statementSourceFor('report', ['api', 'report'])).toBe('report');
    expect(statementSourceFor('api', ['api', 'report'])).toBe('api');
  });

  it('falls back to what the provider offers, or to nothing', () => {
    expect(statementSourceFor('report', ['api'])).toBe('api');
    expect(statementSourceFor('report', [])).toBeNull();
  });
});
