import { describe, expect, it } from 'vitest';
import { parseRecipientPattern } from '@/lib/core/routes/internal/recipient-pattern';
import { recipientSyntaxError } from '@/lib/core/routes/internal/recipient-syntax';

// The form's browser-safe check must refuse what the verb refuses, and accept what it accepts
// (internationalised domains aside, which only the verb can convert).
const CASES = [
  '',
  '*',
  'support',
  'Support@Example.COM',
  'support@example.com.',
  '*@example.com',
  'ticket-*@mail.example.co.uk',
  'a@b',
  'support@*.example.com',
  'a@*',
  'sup port@example.com',
  'support@exa_mple',
  'support@exa_mple.com',
  'support@-bad.example.com',
  'support@example.123',
  'support@1.2.3.4',
  'support@[::1]',
  'support@',
  '@example.com',
  `${'a'.repeat(65)}@example.com`,
  `support@${'a'.repeat(64)}.example.com`,
  'a"b@example.com',
  'a,b@example.com',
];

describe('recipientSyntaxError', () => {
  it.each(CASES)('agrees with parseRecipientPattern on %j', (raw) => {
    expect(recipientSyntaxError(raw) === null).toBe(parseRecipientPattern(raw).ok);
  });

  it('leaves internationalised domains to the verb', () => {
    expect(recipientSyntaxError('info@bücher.example')).toBeNull();
  });
});
