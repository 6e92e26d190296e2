import { describe, expect, it } from 'vitest';
import { matchesRecipientPattern, parseRecipientPattern } from '@/lib/core/routes/internal/recipient-pattern';

describe('parseRecipientPattern', () => {
  it.each([
    ['', { recipient: '', domain: null }],
    ['*', { recipient: '*', domain: null }],
    ['  Support@Example.COM. ', { recipient: 'support@example.com', domain: 'example.com' }],
    ['*@example.com', { recipient: '*@example.com', domain: 'example.com' }],
    ['ticket-*@example.com', { recipient: 'ticket-*@example.com', domain: 'example.com' }],
    ['*-support', { recipient: '*-support', domain: null }],
  ])('%j is accepted', (raw, expected) => {
    expect(parseRecipientPattern(raw)).toEqual({ ok: true, ...expected });
  });

  it.each([
    ['support@*.example.com'],
    ['support@*'],
    ['sup port@example.com'],
    ['<a>@example.com'],
    ['a,b@example.com'],
    ['@example.com'],
    ['a@localhost'],
    ['a@127.0.0.1'],
    [`${'a'.repeat(65)}@example.com`],
  ])('%j is refused', (raw) => {
    expect(parseRecipientPattern(raw).ok).toBe(false);
  });
});

describe('matchesRecipientPattern', () => {
  it.each([
    ['', 'anyone@example.com', true],
    ['*', 'anyone@example.com', true],
    ['support@example.com', 'support@example.com', true],
    ['support@example.com', 'support@example.org', false],
    ['support@example.com', 'support2@example.com', false],
    ['*@example.com', 'x@example.com', true],
    ['ticket-*@example.com', 'ticket-42@example.com', true],
    ['ticket-*@example.com', 'ticket-@example.com', true],
    ['ticket-*@example.com', 'xticket-42@example.com', false],
    ['*-support', 'eu-support@anything.example', true],
    ['*-support', 'eu-support-x@anything.example', false],
    // Regular-expression characters in a pattern are literal.
    ['a.b@example.com', 'axb@example.com', false],
    ['a+b@example.com', 'a+b@example.com', true],
  ])('%j against %j is %j', (pattern, address, expected) => {
    expect(matchesRecipientPattern(pattern, address)).toBe(expected);
  });
});
