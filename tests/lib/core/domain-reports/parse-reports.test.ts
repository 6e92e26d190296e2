import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openReportArchive } from '@/lib/core/domain-reports/internal/open-report-archive';
import { parseDmarcReport } from '@/lib/core/domain-reports/internal/parse-dmarc-report';
import { parseTlsReport } from '@/lib/core/domain-reports/internal/parse-tls-report';
import { BILLION_LAUGHS, dmarcXml, externalEntity, gzip, lyingZipBomb, tlsJson, zip } from './report-fixtures';

const sample = dmarcXml({
  domain: 'example.com',
  reportId: '0042',
  records: [
    { ip: '192.0.2.10', count: 120, dkimAligned: true, spfAligned: true },
    { ip: '2001:db8::25', count: 7, disposition: 'quarantine', dkimAligned: false, spfAligned: false },
  ],
});

describe('parseDmarcReport', () => {
  it('reads the reporter, the period, the policy and every source with its aligned results', () => {
    const parsed = parseDmarcReport(sample);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.report.reportId).toBe('0042');
    expect(parsed.report.reporterOrg).toBe('google.com');
    expect(parsed.report.policy).toMatchObject({ domain: 'example.com', p: 'quarantine', adkim: 'r' });
    expect(parsed.report.endsAt.getTime()).toBeGreaterThan(parsed.report.beginsAt.getTime());
    expect(parsed.report.sources).toEqual([
      expect.objectContaining({ sourceIp: '192.0.2.10', messageCount: 120, dkimAligned: true, spfAligned: true }),
      expect.objectContaining({
        sourceIp: '2001:db8::25',
        messageCount: 7,
        disposition: 'quarantine',
        dkimAligned: false,
        spfAligned: false,
        dkimDomain: 'other.example',
        spfResult: 'softfail',
      }),
    ]);
  });

  it('refuses a billion-laughs document before expanding anything', () => {
    const started = Date.now();
    const parsed = parseDmarcReport(BILLION_LAUGHS);
    expect(parsed).toEqual({ ok: false, reason: expect.stringContaining('DTD') });
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('refuses external entities (a local file, a URL) without reading them', () => {
    for (const url of ['file:///etc/passwd', 'http://127.0.0.1:9/x']) {
      const parsed = parseDmarcReport(externalEntity(url));
      expect(parsed).toEqual({ ok: false, reason: expect.stringContaining('DTD') });
    }
  });

  it.each([
    ['malformed XML', '<feedback><report_metadata>', 'malformed'],
    ['XML that is not a report', '<html><body>hi</body></html>', 'not a DMARC aggregate report'],
    ['a source that is no IP', sample.replace('192.0.2.10', 'example.org'), 'record 1: source_ip'],
    ['a count that is no number', sample.replace('<count>120</count>', '<count>-1</count>'), 'count'],
    ['no report id', sample.replace('<report_id>0042</report_id>', ''), 'report_id'],
  ])('refuses %s with a reason', (_name, xml, reason) => {
    expect(parseDmarcReport(xml)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('leaves entity-like text as it is (no entity processing)', () => {
    const parsed = parseDmarcReport(sample.replace('google.com</org_name>', 'a &amp; b</org_name>'));
    expect(parsed.ok && parsed.report.reporterOrg).toBe('a &amp; b');
  });
});

describe('parseTlsReport', () => {
  it('reads the policies with their session counts and failure details', () => {
    const parsed = parseTlsReport(tlsJson({ domain: 'example.com', reportId: 'r-1', successes: 90, failures: 3 }));
    expect(parsed.ok && parsed.report.policies).toEqual([
      expect.objectContaining({
        policy_type: 'sts',
        policy_domain: 'example.com',
        successful_sessions: 90,
        failed_sessions: 3,
        failures: [expect.objectContaining({ result_type: 'certificate-expired', count: 3 })],
      }),
    ]);
  });

  it.each([
    ['not JSON', '{nope', 'not valid JSON'],
    [
      'JSON without policies',
      '{"organization-name":"x","report-id":"1","date-range":{"start-datetime":"2026-01-01T00:00:00Z","end-datetime":"2026-01-02T00:00:00Z"}}',
      'no policies',
    ],
    ['a JSON array', '[1,2]', 'organization-name'],
  ])('refuses %s', (_name, json, reason) => {
    expect(parseTlsReport(json)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});

describe('openReportArchive', () => {
  it('opens gzip, zip and plain reports alike', async () => {
    for (const bytes of [gzip(sample), zip('google.com!example.com!1!2.xml', sample), Buffer.from(sample)]) {
      expect(await openReportArchive(bytes)).toEqual({ ok: true, text: sample });
    }
  });

  it('stops a gzip bomb at the cap instead of expanding it', async () => {
    const bomb = gzip(Buffer.alloc(60 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(200_000);
    expect(await openReportArchive(bomb)).toEqual({
      ok: false,
      reason: expect.stringContaining('expands to more than'),
    });
  });

  it('stops a zip bomb at the cap', async () => {
    const bomb = zip('report.xml', Buffer.alloc(60 * 1024 * 1024));
    expect(await openReportArchive(bomb)).toEqual({
      ok: false,
      reason: expect.stringMatching(/(expands to|declares) more than/),
    });
  });

  it('counts what a zip member really expands to, whatever its header declares', async () => {
    const bomb = zip('report.xml', Buffer.alloc(8 * 1024 * 1024));
    // Patch the declared uncompressed size (local header and central directory) to 100 bytes.
    const lie = Buffer.from(bomb);
    lie.writeUInt32LE(100, 22);
    const central = lie.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lie.writeUInt32LE(100, central + 24);
    const opened = await openReportArchive(lie);
    expect(opened.ok).toBe(false);
  });

  it('stops a 400 MB zip bomb without a declared size before expanding it (memory stays bounded)', async () => {
    const bomb = lyingZipBomb(400);
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const before = process.resourceUsage().maxRSS;
    expect(await openReportArchive(bomb)).toEqual({
      ok: false,
      reason: expect.stringContaining('expands to more than'),
    });
    // maxRSS is in kilobytes: expanding the member in one go would add 400 MB.
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(200);
  });

  it.each([
    ['a corrupt gzip', Buffer.concat([gzip(sample).subarray(0, 40), randomBytes(40)]), 'gzip archive is corrupt'],
    ['a corrupt zip', Buffer.concat([zip('a.xml', sample).subarray(0, 50), randomBytes(30)]), 'zip'],
    ['a zip with no report in it', zip('readme.txt', 'hello'), 'no .xml or .json'],
    ['more than 10 MB', Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), 'larger than 10 MB'],
    ['nothing', Buffer.alloc(0), 'empty'],
  ])('refuses %s', async (_name, bytes, reason) => {
    expect(await openReportArchive(bytes)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});
