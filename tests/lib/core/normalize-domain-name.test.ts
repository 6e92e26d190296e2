import { describe, expect, it } from 'vitest';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';

describe('normalizeDomainName', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['  mail.example.com ', 'mail.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
  ])('%s becomes %s', (input, expected) => {
    expect(normalizeDomainName(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    ['localhost', /fully qualified/],
    ['10.0.0.1', /IP address/],
    ['[::1]', /IP address/],
    ['-bad.example', /invalid label/],
    ['bad-.example', /invalid label/],
    ['under_score.example', /invalid label/],
    [`${'a'.repeat(64)}.example`, /longer than 63/],
    [`${'a.'.repeat(127)}example`, /longer than 253/],
    ['a..example', /empty label/],
    ['', /empty/],
    ['example.123', /numeric/],
  ])('%s is refused', (input, reason) => {
    const result = normalizeDomainName(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
