import http from 'node:http';
import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import {
  BILLION_LAUGHS,
  dmarcXml,
  externalEntity,
  gzip,
  reportMail,
  tlsJson,
  type SampleRecord,
  zip,
} from '../../tests/lib/core/domain-reports/report-fixtures';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

/**
 * DMARC aggregate and TLS reports mailed by an SMTP client to the report address a domain publishes
 * (`dmarc-<token>@MAIL_HOSTNAME`, on our MX) appear in the domain's report lists and summaries;
 * duplicates are stored once; hostile archives are refused, recorded as rejected, and the MX keeps serving.
 */
const stamp = Date.now().toString(36);
const domain = `reports-${stamp}.example.com`;
let api: ApiClient;
let address: string;
let probe: http.Server;
let probeRequests = 0;
let probeUrl: string;

const mxPort = () => Number(process.env.MAILSTEAD_MX_PORT);

async function send(raw: Buffer, to = address) {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort(), secure: false, ignoreTLS: true });
  try {
    return (await client.sendMail({ envelope: { from: 'noreply-dmarc-support@google.com', to: [to] }, raw })).response;
  } finally {
    client.close();
  }
}

const aggregate = (
  reportId: string,
  records: SampleRecord[] = [{ ip: '192.0.2.10', count: 40, dkimAligned: true, spfAligned: true }],
) => dmarcXml({ domain, reportId, records });

const dmarcReports = () => api.get(api.account(`/domains/${domain}/dmarc-reports`), { checkContract: false });
const tlsReports = () => api.get(api.account(`/domains/${domain}/tls-reports`), { checkContract: false });

test.beforeAll(async () => {
  ({ api } = await newAccount('DMARC reports'));
  expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  const updated = await api.put(api.account(`/domains/${domain}`), { reports_enabled: true }, { checkContract: false });
  expect(updated.status, updated.text).toBe(200);
  address = updated.body.report_address;
  expect(address).toMatch(/^dmarc-[0-9a-f]{24}@mx\.mailstead\.test$/);
  probe = http.createServer((_req, res) => {
    probeRequests++;
    res.end('<!ENTITY x "leak">');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  probeUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}/entity`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => (probe ? probe.close(() => resolve()) : resolve()));
});

test('DNS guidance - reports on: DMARC gains rua and a TLSRPT record is published, both at our MX', async () => {
  const got = await api.get(api.account(`/domains/${domain}`), { checkContract: false });
  const records = got.body.dns_records as { label: string; host: string; content: string }[];
  expect(records.find((record) => record.label === 'DMARC')?.content).toContain(`rua=mailto:${address}`);
  expect(records.find((record) => record.host === `_smtp._tls.${domain}`)?.content).toBe(
    `v=TLSRPTv1; rua=mailto:${address}`,
  );
});

test('MX - an address at MAIL_HOSTNAME with an unknown token is refused at RCPT', async () => {
  const raw = reportMail({ to: 'x', filename: 'a.xml.gz', contentType: 'application/gzip', content: gzip('x') });
  await expect(send(raw, 'dmarc-00000000000000000000dead@mx.mailstead.test')).rejects.toThrow(/550/);
});

test('gzip and zip aggregate reports and a gzip TLS report appear in the API with summaries; a re-sent report is stored once', async () => {
  const gz = gzip(
    aggregate(`gz-${stamp}`, [
      { ip: '192.0.2.10', count: 40, dkimAligned: true, spfAligned: true },
      { ip: '198.51.100.7', count: 12, disposition: 'quarantine', dkimAligned: false, spfAligned: false },
    ]),
  );
  const raw = reportMail({
    to: address,
    filename: `google.com!${domain}!1!2.xml.gz`,
    contentType: 'application/gzip',
    content: gz,
  });
  expect(await send(raw)).toMatch(/^250/);
  expect(await send(raw)).toMatch(/^250/);
  const zipped = zip(`outlook.com!${domain}!1!2.xml`, aggregate(`zip-${stamp}`));
  expect(
    await send(reportMail({ to: address, filename: 'report.zip', contentType: 'application/zip', content: zipped })),
  ).toMatch(/^250/);
  const tls = gzip(tlsJson({ domain, reportId: `tls-${stamp}`, successes: 95, failures: 5 }));
  expect(
    await send(
      reportMail({ to: address, filename: 'tls.json.gz', contentType: 'application/tlsrpt+gzip', content: tls }),
    ),
  ).toMatch(/^250/);

  const listed = await dmarcReports();
  expect(listed.status, listed.text).toBe(200);
  const stored = listed.body.data.filter((report: { status: string }) => report.status === 'stored');
  expect(stored.map((report: { report_id: string }) => report.report_id).sort()).toEqual([
    `gz-${stamp}`,
    `zip-${stamp}`,
  ]);
  const gzReport = stored.find((report: { report_id: string }) => report.report_id === `gz-${stamp}`);
  expect(gzReport).toMatchObject({ messages: 52, failed_messages: 12, reporter: { org_name: 'google.com' } });
  expect(gzReport.sources[1]).toMatchObject({ source_ip: '198.51.100.7', dmarc: 'fail', disposition: 'quarantine' });
  const summary = listed.body.summary;
  expect(summary).toMatchObject({ period_days: 30, reports: 2, messages: 92, unknown_senders: 1 });
  expect(summary.dmarc_pass_share).toBeCloseTo(80 / 92, 3);
  expect(summary.sources.find((source: { source_ip: string }) => source.source_ip === '198.51.100.7')).toMatchObject({
    messages: 12,
    is_unknown_sender: true,
    dispositions: { quarantine: 12 },
  });
  expect(summary.trend).toHaveLength(30);
  expect(summary.trend.reduce((total: number, day: { messages: number }) => total + day.messages, 0)).toBe(92);

  const tlsListed = await tlsReports();
  expect(tlsListed.status, tlsListed.text).toBe(200);
  expect(tlsListed.body.data[0]).toMatchObject({
    report_id: `tls-${stamp}`,
    successful_sessions: 95,
    failed_sessions: 5,
  });
  expect(tlsListed.body.summary).toMatchObject({
    reports: 1,
    successful_sessions: 95,
    failed_sessions: 5,
    failure_types: [{ result_type: 'certificate-expired', sessions: 5 }],
  });
});

test('hostile reports are refused safely, recorded as rejected with a reason, and the MX keeps serving', async () => {
  test.setTimeout(120_000);
  const before = (await dmarcReports()).body.summary.rejected_reports;
  const hostile: [string, Buffer, string][] = [
    ['billion laughs', gzip(BILLION_LAUGHS), 'DTD'],
    ['external entity (file)', gzip(externalEntity('file:///etc/passwd')), 'DTD'],
    ['external entity (http)', gzip(externalEntity(probeUrl)), 'DTD'],
    ['zip bomb', zip('bomb.xml', Buffer.alloc(60 * 1024 * 1024, 0x20)), 'more than'],
    ['gzip bomb', gzip(Buffer.alloc(60 * 1024 * 1024, 0x20)), 'more than'],
    ['corrupt gzip', Buffer.concat([gzip(aggregate('c1')).subarray(0, 30), Buffer.from('garbage-garbage')]), 'corrupt'],
    ['corrupt zip', Buffer.concat([zip('a.xml', aggregate('c2')).subarray(0, 40), Buffer.from('garbage')]), 'zip'],
    ['XML that is not a report', gzip('<html><body>hello</body></html>'), 'not a DMARC'],
    [
      'a report about another domain',
      gzip(dmarcXml({ domain: 'victim.example', reportId: 'v1', records: [] })),
      'victim.example',
    ],
    ['more than 10 MB', Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(10 * 1024 * 1024 + 100, 7)]), '10 MB'],
  ];
  for (const [, content] of hostile)
    expect(
      await send(reportMail({ to: address, filename: 'r.xml.gz', contentType: 'application/gzip', content })),
    ).toMatch(/^250/);
  const listed = await dmarcReports();
  expect(listed.body.summary.rejected_reports - before).toBe(hostile.length);
  const reasons = listed.body.data
    .filter((report: { status: string }) => report.status === 'rejected')
    .map((report: { rejection_reason: string }) => report.rejection_reason);
  for (const [name, , reason] of hostile)
    expect(
      reasons.some((text: string) => text.includes(reason)),
      `${name}: ${reason} in ${reasons.join(' | ')}`,
    ).toBe(true);
  expect(reasons.join('\n')).not.toContain('root:');
  expect(probeRequests).toBe(0);
  // Still serving: a good report after all of that is stored.
  expect(
    await send(
      reportMail({
        to: address,
        filename: 'ok.xml',
        contentType: 'text/xml',
        content: Buffer.from(aggregate(`after-${stamp}`)),
      }),
    ),
  ).toMatch(/^250/);
  const after = await dmarcReports();
  expect(after.body.data.some((report: { report_id: string }) => report.report_id === `after-${stamp}`)).toBe(true);
});

test('several reports delivered in parallel are all stored, the same one twice in parallel once', async () => {
  const ids = Array.from({ length: 6 }, (_, index) => `par-${index}-${stamp}`);
  const mails = [...ids, ids[0]].map((id) =>
    reportMail({ to: address, filename: 'p.xml.gz', contentType: 'application/gzip', content: gzip(aggregate(id)) }),
  );
  const answers = await Promise.all(mails.map((raw) => send(raw)));
  for (const answer of answers) expect(answer).toMatch(/^250/);
  const listed = await dmarcReports();
  const found = listed.body.data.filter((report: { report_id: string }) => ids.includes(report.report_id));
  expect(found).toHaveLength(ids.length);
});

test('tenancy - another account cannot read the domain reports (refused; 404 on its own account path)', async () => {
  const { api: other } = await newAccount('DMARC reports outsider');
  const path = `/v2/accounts/${api.accountId}/domains/${domain}/dmarc-reports`;
  expect([401, 403, 404]).toContain((await other.get(path, { checkContract: false })).status);
  expect((await other.get(other.account(`/domains/${domain}/dmarc-reports`), { checkContract: false })).status).toBe(
    404,
  );
  expect((await other.get(other.account(`/domains/${domain}/tls-reports`), { checkContract: false })).status).toBe(404);
});

test('OpenAPI - both report lists are documented, with their summaries, as Mailstead extensions', async () => {
  const document = await api.get('/v2/openapi.json', { checkContract: false });
  const paths = document.body.paths as Record<string, { get?: Record<string, unknown> }>;
  for (const suffix of ['dmarc-reports', 'tls-reports']) {
    const operation = paths[`/v2/accounts/{account_id}/domains/{domain}/${suffix}`]?.get;
    expect(operation, suffix).toBeTruthy();
    expect(operation?.['x-mailstead-extension']).toBe(true);
  }
  expect(Object.keys(document.body.components.schemas)).toEqual(
    expect.arrayContaining(['DmarcReportsResponse', 'DmarcReportsSummary', 'TlsReportsResponse', 'TlsReportsSummary']),
  );
});
