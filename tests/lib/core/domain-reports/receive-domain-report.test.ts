import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDmarcReports } from '@/lib/core/domain-reports/list-dmarc-reports';
import { createDomain } from '@/lib/core/domains/create-domain';
import { updateDomain } from '@/lib/core/domains/update-domain';
import { unsafeCheckInboundRecipient } from '@/lib/core/inbound/check-inbound-recipient';
import { unsafeReceiveInboundMail } from '@/lib/core/inbound/receive-inbound-mail';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';
import { dmarcXml, gzip, reportMail } from './report-fixtures';

/** Report mail through the MX's two core calls: the RCPT decision, then the received message. */
let services: TestServices;
let accountId: string;
let address: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
  const key = keyPrincipal(accountId, ['domains:write', 'domains:read']);
  await createDomain(as(services, key), { domain: 'reports.example' });
  const updated = await updateDomain(as(services, key), { domain: 'reports.example', reports_enabled: true });
  address = updated.report_address!;
}, 60_000);

afterAll(() => services?.close());

async function deliver(raw: Buffer, to = address) {
  const recipient = await unsafeCheckInboundRecipient(services.db, to, services.config.mailHostname);
  if (recipient.kind !== 'report') return recipient.kind;
  return unsafeReceiveInboundMail(services, { sender: '', recipients: [recipient], raw });
}

const list = () =>
  listDmarcReports(as(services, keyPrincipal(accountId, ['domains:read'])), { domain: 'reports.example', limit: 100 });

describe('report mail', () => {
  it('is accepted only at the domain token, stored once, and counted in the summary', async () => {
    expect(await deliver(Buffer.from('x'), address.replace(/dmarc-\w+/, 'dmarc-0000000000000000deadbeef'))).toBe(
      'no_such_user',
    );
    const xml = dmarcXml({
      domain: 'reports.example',
      reportId: 'unit-1',
      records: [
        { ip: '192.0.2.1', count: 9, dkimAligned: true, spfAligned: false },
        { ip: '203.0.113.9', count: 3, dkimAligned: false, spfAligned: false, disposition: 'reject' },
      ],
    });
    const raw = reportMail({ to: address, filename: 'r.xml.gz', contentType: 'application/gzip', content: gzip(xml) });
    expect(await deliver(raw)).toMatchObject({ kind: 'received', reports: 1 });
    await deliver(raw);
    const { page, summary } = await list();
    expect(page.items.filter((report) => report.status === 'stored')).toHaveLength(1);
    expect(summary).toMatchObject({ reports: 1, messages: 12, unknown_senders: 1 });
    expect(summary.dmarc_pass_share).toBe(0.75);
  });

  it('records a hostile report as rejected, with its reason, and does not throw', async () => {
    const raw = reportMail({
      to: address,
      filename: 'r.xml',
      contentType: 'text/xml',
      content: Buffer.from('<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><feedback>&a;</feedback>'),
    });
    expect(await deliver(raw)).toMatchObject({ kind: 'received' });
    const { summary } = await list();
    expect(summary.rejected_reports).toBe(1);
    expect(summary.rejected[0].reason).toContain('DTD');
  });
});
