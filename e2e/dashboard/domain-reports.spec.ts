import nodemailer from 'nodemailer';
import {
  BILLION_LAUGHS,
  dmarcXml,
  gzip,
  reportMail,
  tlsJson,
} from '../../tests/lib/core/domain-reports/report-fixtures';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { expect, test } from '../support/dashboard';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import { newAccount, sharedServer } from '../support/shared';

/**
 * DMARC and TLS reports on the domain page, as a person meets them: off, with what turning them on
 * does; on, the address to publish; then reports mailed to our MX by an SMTP client (as Google's
 * reporter would) show the figures, the unknown sender standing out with its reverse name, the TLS
 * failures and a refused hostile report; at 1440 and 390 px. The API and hostile archives are in
 * e2e/smtp/domain-reports.spec.ts.
 */
const WIDE = { width: 1440, height: 900 } as const;

async function mailToMx(to: string, filename: string, contentType: string, content: Buffer) {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port: Number(process.env.MAILSTEAD_MX_PORT),
    secure: false,
    ignoreTLS: true,
  });
  try {
    const raw = reportMail({ to, filename, contentType, content });
    const sent = await client.sendMail({ envelope: { from: 'noreply-dmarc-support@google.com', to: [to] }, raw });
    expect(sent.response).toMatch(/^250/);
  } finally {
    client.close();
  }
}

test('turn reports on, then see mailed DMARC and TLS reports: figures, an unknown sender with its reverse name, a refused report', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('reports-owner');
  const { api, accountId } = await newAccount('Dashboard DMARC reports', email);
  const { baseUrl } = sharedServer();
  const stamp = Date.now().toString(36);
  const domain = `dmarc-ui-${stamp}.example.com`;
  expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  // Addresses of this test alone: the server caches reverse names per address for hours.
  const octet = 1 + Math.floor(Math.random() * 250);
  const ours = `203.0.113.${octet}`;
  const spoofer = `198.51.100.${octet}`;
  const dns = new DnsControl();
  await dns.setPtr(ours, `mta-${stamp}.mailstead.example`);
  // Whoever controls a spoofer's reverse DNS writes its name: it must show as text.
  const HOSTILE_PTR = '<img src=x onerror=alert(1)>.evil.example';
  await dns.setPtr(spoofer, HOSTILE_PTR);
  page.on('dialog', (dialog) => {
    throw new Error(`a page dialog opened: ${dialog.message()}`);
  });

  await page.setViewportSize(WIDE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/domains/${domain}`);
  const panel = page.locator('section[aria-labelledby="reports-heading"]');
  await expect(panel).toContainText('Reports are off');
  await panel.getByRole('button', { name: 'Receive reports' }).click();
  await expect(panel).toContainText('No DMARC report yet');
  const address = (await panel.locator('code').first().textContent())!;
  expect(address).toMatch(/^dmarc-[0-9a-f]{24}@/);
  // The DNS guidance now asks for the rua address and a TLSRPT record.
  await expect(page.locator('[data-dns-record="DMARC"]')).toContainText(`rua=mailto:${address}`);
  await expect(page.getByText(`v=TLSRPTv1; rua=mailto:${address}`)).toBeVisible();

  const aggregate = dmarcXml({
    domain,
    reportId: `ui-${stamp}`,
    records: [
      { ip: ours, count: 40, dkimAligned: true, spfAligned: true },
      { ip: spoofer, count: 12, disposition: 'quarantine', dkimAligned: false, spfAligned: false },
    ],
  });
  await mailToMx(address, `google.com!${domain}!1!2.xml.gz`, 'application/gzip', gzip(aggregate));
  const tls = tlsJson({ domain, reportId: `tls-${stamp}`, successes: 95, failures: 5 });
  await mailToMx(address, 'tls.json.gz', 'application/tlsrpt+gzip', gzip(tls));
  await mailToMx(address, 'bomb.xml.gz', 'application/gzip', gzip(BILLION_LAUGHS));
  // A reporter names the policy type: "__proto__" and "constructor" are names like any other.
  for (const policyType of ['__proto__', 'constructor']) {
    const odd = tlsJson({ domain, reportId: `tls-${policyType}-${stamp}`, successes: 0, failures: 0, policyType });
    await mailToMx(address, `${policyType}.json.gz`, 'application/tlsrpt+gzip', gzip(odd));
  }

  await page.reload();
  // A figure: its label over its value.
  const figure = (label: string) => panel.locator('div.rounded-md', { has: page.getByText(label, { exact: true }) });
  await expect(panel).toContainText('Messages reported (30 days)');
  await expect(figure('Messages reported (30 days)')).toContainText('52');
  // 40 of 52 messages passed DMARC.
  await expect(figure('DMARC pass')).toContainText('76.9%');
  await expect(figure('Unknown senders')).toContainText('1');
  await expect(panel.getByRole('status').filter({ hasText: 'Mail you may not have sent' })).toContainText(
    `1 source sent mail as ${domain}`,
  );
  const sources = panel.getByRole('table', { name: 'Sending sources' });
  const known = sources.locator('tr', { hasText: ours });
  await expect(known).toContainText(`mta-${stamp}.mailstead.example`);
  await expect(known).not.toHaveAttribute('data-unknown-sender', 'true');
  const unknown = sources.locator('tr', { hasText: spoofer });
  await expect(unknown).toHaveAttribute('data-unknown-sender', 'true');
  await expect(unknown).toContainText('Unknown sender');
  await expect(unknown).toContainText('quarantine 12');
  await expect(unknown).toContainText('<img src=x onerror=');
  await expect(panel.locator('img')).toHaveCount(0);
  await expect(panel).toContainText('1 report in the last 30 days, 1 refused');
  await expect(panel.getByRole('list', { name: 'Refused reports' }).first()).toContainText('DTD');
  await expect(figure('Successful TLS sessions')).toContainText('95');
  await expect(figure('Failed sessions')).toContainText('5');
  await expect(panel.getByRole('list', { name: 'TLS failures by type' })).toContainText('certificate-expired');
  await expect(panel.getByRole('list', { name: 'TLS results per policy' })).toContainText(
    `MTA-STS for ${domain}: 95 succeeded, 5 failed`,
  );
  for (const policyType of ['__proto__', 'constructor'])
    await expect(panel.getByRole('list', { name: 'TLS results per policy' })).toContainText(
      `${policyType} for ${domain}: 0 succeeded, 0 failed`,
    );
  await panel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'domain-reports-1440');

  await page.setViewportSize(PHONE);
  await page.reload();
  // At a phone's width each source is a card: every figure readable without scrolling sideways.
  const cards = panel.getByRole('list', { name: 'Sending sources' });
  await expect(cards.getByRole('listitem').filter({ hasText: ours })).toContainText(
    `mta-${stamp}.mailstead.example40 messages · SPF aligned 40 · DKIM aligned 40 · DMARC pass 40 · none 40`,
  );
  const spoofed = cards.getByRole('listitem').filter({ hasText: spoofer });
  await expect(spoofed).toHaveAttribute('data-unknown-sender', 'true');
  await expect(spoofed).toContainText('Unknown sender');
  await expect(spoofed).toContainText('12 messages · SPF aligned 0 · DKIM aligned 0 · DMARC pass 0 · quarantine 12');
  await expect(sources).toBeHidden();
  await expectNoHorizontalOverflow(page);
  await panel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'domain-reports-390');
});
