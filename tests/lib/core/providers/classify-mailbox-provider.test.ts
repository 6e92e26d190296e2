import { describe, expect, it } from 'vitest';
import { classifyMailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';

describe('classifyMailboxProvider', () => {
  it.each([
    [['gmail-smtp-in.l.google.com'], 'gmail'],
    [['ASPMX.L.GOOGLE.COM.'], 'gmail'],
    [['example-com.mail.protection.outlook.com'], 'microsoft'],
    [['hotmail-com.olc.protection.outlook.com'], 'microsoft'],
    [['mta5.am0.yahoodns.net'], 'yahoo'],
    [['mx01.mail.icloud.com'], 'apple'],
    [['mx.example.org', 'alt.aspmx.l.google.com'], 'gmail'],
    [['mx.example.org'], 'other'],
    [['notgoogle.com'], 'other'],
    [['google.com.evil.example'], 'other'],
    [[], 'other'],
  ])('%j is %s', (hosts, provider) => {
    expect(classifyMailboxProvider(hosts)).toBe(provider);
  });
});
