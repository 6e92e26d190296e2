import { readFileSync } from 'node:fs';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { capture, signIn } from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import { newAccount, sharedServer } from '../support/shared';

test('domains: add one, publish its records in DNS, check, watch them turn verified, download the zone file', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('domains-owner');
  const account = await newAccount('Dashboard domains', email);
  const { baseUrl } = sharedServer();
  const name = `shop-${Date.now().toString(36)}.example.com`;
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByText('No domains yet')).toBeVisible();

  // The sending type says what each choice means where the domain is made.
  await expect(page.getByLabel('Sending type')).toHaveAccessibleDescription(
    /Transactional: mail one person triggered.*Marketing: campaigns and newsletters/,
  );
  await page.getByLabel('Domain', { exact: true }).fill('not a domain');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.locator('[data-field-error="new-domain"]')).toContainText('invalid domain name');
  await page.getByLabel('Domain', { exact: true }).fill(name.toUpperCase());
  await page.getByRole('button', { name: 'Add domain' }).click();

  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(page.getByTestId('last-dns-check')).toHaveText('Last DNS check: never');
  const rows = page.locator('[data-dns-record]');
  await expect(rows).toHaveCount(9);
  await expect(page.locator('[data-dns-record="SPF"]')).toContainText('v=spf1 a:mx.mailstead.test ~all');
  await capture(page, testInfo, 'domain-pending');

  // Publish everything but DMARC, plus a wrong return path: the page says what is wrong.
  const api = account.api;
  const domain = (await api.get(api.account(`/domains/${name}`))).body;
  const dns = new DnsControl();
  await dns.publish(domain.dns_records.filter((record: { label: string }) => record.label !== 'DMARC'));
  await dns.setCname(`rp.${name}`, 'wrong.example.net');
  await page.getByRole('button', { name: 'Check DNS now' }).click();
  await expect(page.getByText('Some required records are missing or wrong')).toBeVisible();
  await expect(page.locator('[data-dns-record="DMARC"]')).toContainText('Not found');
  await expect(page.locator('[data-dns-record="Return path"]')).toContainText('Found instead: wrong.example.net');
  await expect(page.locator('[data-dns-record="SPF"]')).toContainText('Verified');
  await expect(page.locator('[data-checklist-item="unmet"]')).toHaveCount(2);
  await capture(page, testInfo, 'domain-failing');

  await dns.publish(domain.dns_records);
  await page.getByRole('button', { name: 'Check DNS now' }).click();
  await expect(page.getByText('All required records are in place')).toBeVisible();
  for (const label of ['SPF', 'DKIM', 'DMARC', 'Return path'])
    await expect(page.locator(`[data-dns-record="${label}"]`)).toContainText('Verified');
  await expect(page.locator('[data-checklist-item="unmet"]')).toHaveCount(0);
  await expect(page.getByTestId('last-dns-check')).not.toHaveText('Last DNS check: never');
  await expect(page.getByTestId('dns-check-result')).toContainText('Checked at');
  await expect(page.getByRole('button', { name: 'Rotate DKIM now' })).toBeEnabled();
  await capture(page, testInfo, 'domain-verified');

  // Rotation changes the signing key at once: the dialog says what happens, the page what happened.
  const selector = async () =>
    (await api.get(api.account(`/domains/${name}`))).body.dns_records
      .find((record: { label: string }) => record.label === 'DKIM')
      .host.split('._domainkey.')[0];
  const before = await selector();
  await page.getByRole('button', { name: 'Rotate DKIM now' }).click();
  const rotate = page.getByRole('dialog', { name: `Rotate DKIM for ${name}?` });
  await expect(rotate).toContainText('becomes active and signs every message from this moment');
  await expect(rotate).toContainText('leave the old DKIM record');
  await capture(page, testInfo, 'rotate-dkim-confirm');
  await rotate.getByRole('button', { name: 'Rotate now' }).click();
  await expect(page.getByText('DKIM rotated: the key under selector')).toBeVisible();
  expect(await selector()).not.toBe(before);
  await expect(page.getByText(`Keep the old record (selector “${before}”)`)).toBeVisible();
  await capture(page, testInfo, 'rotate-dkim-done');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download zone file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${name}.zone`);
  const zone = readFileSync(await download.path(), 'utf8');
  expect(zone).toContain(`_dmarc.${name}.\tIN\tTXT\t"v=DMARC1; p=quarantine; adkim=r; aspf=r;"`);
  expect(zone).toContain(`rp.${name}.\tIN\tCNAME\tmx.mailstead.test.`);
  await testInfo.attach('zone-file', { body: zone, contentType: 'text/plain' });

  // The sending type can change later, after a confirmation that says what changes.
  const sendingType = page.getByRole('region', { name: 'Sending type' });
  await expect(sendingType).toContainText('Transactional.');
  await sendingType.getByRole('button', { name: 'Change to marketing' }).click();
  const change = page.getByRole('dialog', { name: `Make ${name} a marketing domain?` });
  await expect(change).toContainText('one-click unsubscribe');
  await expect(change.getByRole('button', { name: 'Change to marketing' })).toBeFocused();
  await capture(page, testInfo, 'domain-sending-type-confirm');
  await change.getByRole('button', { name: 'Change to marketing' }).click();
  await expect(sendingType).toContainText(`${name} is now a marketing domain.`);
  await expect(sendingType).toContainText('Marketing.');
  await expect(sendingType.getByRole('button', { name: 'Change to transactional' })).toBeVisible();
  expect((await api.get(api.account(`/domains/${name}`))).body.sending_type).toBe('marketing');
  await capture(page, testInfo, 'domain-sending-type-changed');

  // A verified subdomain is locked: the server's refusal shows under the field.
  await page.getByLabel('Return path subdomain').fill('bounces');
  await page.getByRole('button', { name: 'Save domain settings' }).click();
  await expect(page.locator('[data-field-error="return_path_subdomain"]')).toContainText('locked');

  await page.goto(`${baseUrl}/${account.accountId}/domains`);
  await expect(page.locator(`[data-domain-row="${name}"]`)).toContainText('Verified');
  await capture(page, testInfo, 'domains-list');
});
