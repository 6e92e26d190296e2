import { describe, expect, it } from 'vitest';
import { expectedDnsRecords, recordMatches } from '@/lib/core/domains/internal/dns-records';

const config = {
  spfInclude: null,
  sendingIps: [],
  mailHostname: 'MX.Mailstead.test',
  publicUrl: new URL('https://mail.example.net'),
} as unknown as Parameters<typeof expectedDnsRecords>[2];
const domain = {
  domain: 'example.com',
  returnPathSubdomain: null,
  trackingSubdomain: null,
  subscriptionSubdomain: null,
  mediaSubdomain: null,
};

describe('DNS guidance with reports on', () => {
  it('adds rua at our MX to DMARC and a TLSRPT record; off, neither', () => {
    const on = expectedDnsRecords(
      { ...domain, reportsEnabled: true, reportsToken: 'abc123abc123abc123abc123' },
      [],
      config,
    );
    const address = 'dmarc-abc123abc123abc123abc123@mx.mailstead.test';
    expect(on.find((record) => record.kind === 'dmarc')?.content).toBe(
      `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:${address};`,
    );
    const tlsrpt = on.find((record) => record.kind === 'tlsrpt')!;
    expect(tlsrpt).toMatchObject({
      host: '_smtp._tls.example.com',
      required: false,
      content: `v=TLSRPTv1; rua=mailto:${address}`,
    });
    expect(recordMatches(tlsrpt, [`v=TLSRPTv1; rua=mailto:${address}`])).toBe(true);
    expect(recordMatches(tlsrpt, ['v=TLSRPTv1; rua=mailto:someone@else.example'])).toBe(false);

    const off = expectedDnsRecords(
      { ...domain, reportsEnabled: false, reportsToken: 'abc123abc123abc123abc123' },
      [],
      config,
    );
    expect(off.find((record) => record.kind === 'dmarc')?.content).not.toContain('rua=');
    expect(off.some((record) => record.kind === 'tlsrpt')).toBe(false);
  });
});
