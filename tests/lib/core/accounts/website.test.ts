import { describe, expect, it } from 'vitest';
import { updateAccountSchema } from '@/lib/core/accounts/schemas';

/** The account's Website takes what the sub-account's takes (a bare domain) and stores a web address. */
const website = (value: unknown) => updateAccountSchema.shape.website.safeParse(value);

describe('account website', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['  Example.COM  ', 'https://example.com'],
    ['https://example.com', 'https://example.com'],
    ['https://example.com/', 'https://example.com'],
    ['http://shop.example.com/about', 'http://shop.example.com/about'],
    ['www.example.com/pricing?x=1', 'https://www.example.com/pricing?x=1'],
  ])('%s is stored as %s', (given, stored) => {
    expect(website(given)).toEqual({ success: true, data: stored });
  });

  it('null clears it', () => {
    expect(website(null)).toEqual({ success: true, data: null });
  });

  it.each([
    'not a url',
    'javascript:alert(1)',
    'ftp://example.com',
    'localhost',
    'https://',
    'mailto:a@example.com',
    '',
  ])('%s is refused, with both accepted forms named', (given) => {
    const parsed = website(given);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe('must be a web address such as example.com or https://example.com');
  });
});
