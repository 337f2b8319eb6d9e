import { describe, expect, it } from 'vitest';
import { createIntegrationTokens } from './payment-integration-token.js';

describe('integration tokens', () => {
  const tokens = createIntegrationTokens('integration-test-secret-0123456789abcdef');

  it('verifies a signed token, again from what it already knows', () => {
    const token = tokens.sign({ formUid: 'form-1', fieldUid: 'field-1' });
    expect(tokens.verify(token)).toEqual({ formUid: 'form-1', fieldUid: 'field-1' });
    expect(tokens.verify(token)).toEqual({ formUid: 'form-1', fieldUid: 'field-1' });
  });

  it('refuses a token whose signature or target was changed after the genuine one was verified', () => {
    const token = tokens.sign({ formUid: 'form-2', fieldUid: 'field-2' });
    expect(tokens.verify(token)).not.toBeNull();
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(tokens.verify(`${token.slice(0, -1)}${last}`)).toBeNull();
    expect(tokens.verify(token.replace('form-2', 'form-3'))).toBeNull();
    expect(tokens.verify(`${token}.x`)).toBeNull();
  });

  it('refuses tokens signed under another secret', () => {
    const other = createIntegrationTokens('another-secret-0123456789abcdefghijkl');
    expect(tokens.verify(other.sign({ formUid: 'form-1', fieldUid: 'field-1' }))).toBeNull();
  });

  it('still verifies every token after more genuine tokens than it keeps', () => {
    const signed = Array.from({ length: 600 }, (_, i) => tokens.sign({ formUid: `form-${i}`, fieldUid: 'field' }));
    for (const token of signed) expect(tokens.verify(token)).not.toBeNull();
    expect(signed.every((token, i) => tokens.verify(token)?.formUid === `form-${i}`)).toBe(true);
  });
});
