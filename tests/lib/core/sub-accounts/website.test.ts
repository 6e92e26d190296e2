import { describe, expect, it } from 'vitest';
import { normalizeWebsite } from '@/lib/core/sub-accounts/internal/website';

/** A sub account's website is shown in the dashboard and the API: only a domain name gets in. */
describe('normalizeWebsite', () => {
  it('keeps a domain name, normalised', () => {
    expect(normalizeWebsite('Acme.Example.COM.')).toBe('acme.example.com');
    expect(normalizeWebsite('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('takes the domain of a web address, as the account Website field accepts both', () => {
    expect(normalizeWebsite('https://Acme.Example.com')).toBe('acme.example.com');
    expect(normalizeWebsite(' http://acme.example.com/ ')).toBe('acme.example.com');
  });

  it.each([
    ['a script URL', 'javascript:alert(1)'],
    ['markup', '<script>alert(1)</script>.example.com'],
    ['a URL with a path', 'https://acme.example.com/pricing'],
    ['a URL with a query', 'https://acme.example.com?a=b'],
    ['a URL with credentials', 'https://user:pw@acme.example.com'],
    ['a URL with a port', 'https://acme.example.com:8443'],
    ['another scheme', 'ftp://acme.example.com'],
    ['a scheme and nothing else', 'https://'],
    ['a path', 'acme.example.com/../../etc/passwd'],
    ['a header break', 'acme.example.com\r\nSet-Cookie: a=b'],
    ['a NUL', 'acme\u0000.example.com'],
    ['spaces', 'acme example.com'],
    ['quotes', '"acme".example.com'],
    ['an address', 'user@acme.example.com'],
    ['an IP address', '127.0.0.1'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`],
    ['a name over 253 characters', `${'a.'.repeat(130)}example.com`],
    ['empty', ''],
  ])('refuses %s with a 400 naming website', (_what, value) => {
    expect(() => normalizeWebsite(value)).toThrow(/website/);
    try {
      normalizeWebsite(value);
    } catch (error) {
      expect((error as { kind: string }).kind).toBe('invalid_input');
    }
  });
});
