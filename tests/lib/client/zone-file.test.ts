import { describe, expect, it } from 'vitest';
import { toZoneFile } from '@/lib/client/zone-file';

describe('toZoneFile', () => {
  it('writes absolute names, splits long TXT values and keeps MX priorities', () => {
    const zone = toZoneFile('example.com', [
      { type: 'TXT', host: 'example.com', content: 'v=spf1 a:mx.example.net ~all', required: true, label: 'SPF' },
      {
        type: 'TXT',
        host: 'sel._domainkey.example.com',
        content: `v=DKIM1; k=rsa; p=${'A'.repeat(400)}`,
        required: true,
        label: 'DKIM',
      },
      { type: 'CNAME', host: 'rp.example.com', content: 'mx.example.net', required: false },
      { type: 'MX', host: 'example.com', content: 'mx.example.net', priority: 10, required: false },
      { type: 'TXT', host: '_dmarc.example.com', content: 'say "hi"', required: true },
    ]);
    expect(zone).toContain('example.com.\tIN\tTXT\t"v=spf1 a:mx.example.net ~all"');
    const dkim = zone.split('\n').find((line) => line.startsWith('sel._domainkey'))!;
    expect(dkim).toMatch(/^sel\._domainkey\.example\.com\.\tIN\tTXT\t\( "v=DKIM1; k=rsa; p=A+" "A+" \)$/);
    expect(dkim.match(/"([^"]*)"/g)!.every((chunk) => chunk.length - 2 <= 255)).toBe(true);
    expect(zone).toContain('rp.example.com.\tIN\tCNAME\tmx.example.net.');
    expect(zone).toContain('example.com.\tIN\tMX\t10 mx.example.net.');
    expect(zone).toContain('"say \\"hi\\""');
    expect(zone).toContain('(required)');
  });
});
