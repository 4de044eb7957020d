import { describe, expect, it } from 'vitest';
import { nameBasedUuid } from './name-based-uuid.js';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('nameBasedUuid', () => {
  it('gives the RFC 9562 test vector for www.example.com in the DNS namespace', () => {
    expect(nameBasedUuid(DNS_NAMESPACE, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('is the same for the same name and different for another', () => {
    expect(nameBasedUuid(DNS_NAMESPACE, 'a')).toBe(nameBasedUuid(DNS_NAMESPACE, 'a'));
    expect(nameBasedUuid(DNS_NAMESPACE, 'a')).not.toBe(nameBasedUuid(DNS_NAMESPACE, 'b'));
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => nameBasedUuid('not-a-uuid', 'a')).toThrow(/namespace must be a UUID/);
  });
});
