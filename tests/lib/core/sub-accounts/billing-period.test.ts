import { describe, expect, it } from 'vitest';
import { billingPeriodOf } from '@/lib/core/sub-accounts/internal/billing-period';
import { websiteHostOf } from '@/lib/core/sub-accounts/internal/present';
import { createSubAccountSchema, updateSubAccountSchema } from '@/lib/core/sub-accounts/schemas';
import { normalizeWebsite } from '@/lib/core/sub-accounts/internal/website';

describe('billingPeriodOf', () => {
  it.each([
    ['2026-11-23T03:00:00Z', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2028-02-01T00:00:00Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ])('%s falls in the UTC month from %s to %s', (at, start, end) => {
    const period = billingPeriodOf(new Date(at));
    expect([period.start.toISOString(), period.end.toISOString()]).toEqual([start, end]);
  });
});

describe('sub account website', () => {
  it('is a domain name, normalised, kept as the account URL and shown as its host', () => {
    expect(createSubAccountSchema.parse({ name: ' Acme ', website: 'Acme.Example.COM.' })).toEqual({
      name: 'Acme',
      website: 'Acme.Example.COM.',
      monthly_credit: 0,
    });
    expect(normalizeWebsite('Acme.Example.COM.')).toBe('acme.example.com');
    expect(websiteHostOf('https://acme.example.com')).toBe('acme.example.com');
    expect(websiteHostOf('https://acme.example.com/about')).toBe('acme.example.com');
    expect(websiteHostOf(null)).toBe('');
  });

  it.each(['https://acme.example.com/about', 'localhost', '10.0.0.1', ''])('refuses %j', (website) => {
    expect(() => normalizeWebsite(website)).toThrow(/website: must be a domain name/);
  });

  it('refuses more than 255 characters in the schema', () => {
    expect(createSubAccountSchema.safeParse({ name: 'n', website: 'a'.repeat(256) }).success).toBe(false);
  });

  it('leaves null and omitted fields of an update unchanged', () => {
    expect(updateSubAccountSchema.parse({ name: null })).toEqual({ name: null });
    expect(updateSubAccountSchema.safeParse({ monthly_credit: 1_000_000_001 }).success).toBe(false);
  });
});
