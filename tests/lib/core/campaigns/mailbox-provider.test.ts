import { describe, expect, it } from 'vitest';
import { mailboxProviderOf } from '@/lib/core/campaigns/mailbox-provider';
import { classifyMailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';

describe('classifyMailboxProvider', () => {
  it.each([
    [['gmail-smtp-in.l.google.com', 'alt1.gmail-smtp-in.l.google.com'], 'gmail'],
    [['ASPMX.L.GOOGLE.COM.'], 'gmail'],
    [['smtp.google.com'], 'gmail'],
    [['mx.googlemail.com'], 'gmail'],
    [['example-com.mail.protection.outlook.com'], 'microsoft'],
    [['hotmail-com.olc.protection.outlook.com'], 'microsoft'],
    [['mx1.hotmail.com'], 'microsoft'],
    [['mta5.am0.yahoodns.net', 'mta6.am0.yahoodns.net'], 'yahoo'],
    [['mx-aol.mail.gm0.yahoodns.net'], 'yahoo'],
    [['mx01.mail.icloud.com', 'mx02.mail.icloud.com'], 'apple'],
    [['mx.example.org'], 'other'],
    [[], 'other'],
  ])('%j is %s', (hosts, provider) => {
    expect(classifyMailboxProvider(hosts)).toBe(provider);
  });

  it('decides by the first host on a known domain, in the order given (priority)', () => {
    expect(classifyMailboxProvider(['mx.example.org', 'mx01.mail.icloud.com', 'aspmx.l.google.com'])).toBe('apple');
  });

  it.each([
    'google.com.evil.example',
    'evilgoogle.com',
    'outlook.com-mx.example',
    'yahoodns.net.example',
    'icloud.com\u0000.example',
    'mx.example/../google.com ',
    '*.google.com.attacker',
  ])('a look-alike host %j is other', (host) => {
    expect(classifyMailboxProvider([host])).toBe('other');
  });
});

describe('mailboxProviderOf', () => {
  it('unknown or stored values outside the list count as other', () => {
    expect(mailboxProviderOf({ mailboxProvider: 'gmail' })).toBe('gmail');
    expect(mailboxProviderOf({ mailboxProvider: null })).toBe('other');
    expect(mailboxProviderOf({ mailboxProvider: 'hotmail' })).toBe('other');
  });
});
