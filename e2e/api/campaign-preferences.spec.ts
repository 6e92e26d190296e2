import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signUnsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from '../../lib/core/campaigns/unsubscribe-links';
import { SecretBox } from '../../lib/shared/crypto';
import type { ApiClient } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The page behind every campaign's unsubscribe link (marketing-api.md, Preferences), on the shared
 * server: the contact's own lists, saved one by one or all at once, named as contacts should see
 * them. Split from signup-forms.spec.ts, which covers the forms and double opt-in.
 */
const stamp = Date.now().toString(36);
const sender = `prefs-${stamp}.example.com`;
const HOSTILE = '<script>alert(1)</script> & "quotes"';
let api: ApiClient;
let other: ApiClient;
let listId: string;
let secondListId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ api } = await newAccount('Preferences'));
  ({ api: other } = await newAccount('Preferences (other account)'));
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  listId = (await api.post(api.account('/lists'), { name: `News ${HOSTILE}` })).body.id;
  secondListId = (await api.post(api.account('/lists'), { name: 'Offers' })).body.id;
});

const email = (name: string) => `${name}-${stamp}@example.org`;
// Public requests from a loopback address of this spec's own, as in signup-forms.spec.ts.
const publicClient = () => api.with(null).from('127.0.0.68');
const membership = async (address: string, list = listId) => {
  const response = await api.get(api.account(`/contacts/${encodeURIComponent(address)}/lists`));
  if (response.status === 404) return 'no contact';
  return response.body.data.find((row: { list_id: string }) => row.list_id === list)?.subscription_status ?? null;
};

/** A campaign's unsubscribe token for a contact, signed as the server signs it (its master key). */
function unsubscribeToken(campaignId: string, contactId: string): string {
  const { dataDir } = sharedServer();
  const secret = process.env.MAILSTEAD_TEST_DATABASE_URL ? process.env.MAILSTEAD_TEST_SECRET : undefined;
  const masterKey = secret
    ? Buffer.from(secret, 'utf8')
    : Buffer.from(readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
  return signUnsubscribeToken(new SecretBox(masterKey).deriveKey(UNSUBSCRIBE_KEY_PURPOSE), campaignId, contactId);
}

test("the unsubscribe link opens the contact's own preferences: each of their lists, saved one by one, or everything", async () => {
  const address = email('prefs');
  const contact = (await api.post(api.account('/contacts'), { email: address })).body;
  const stranger = (await api.post(api.account('/lists'), { name: 'Stranger list' })).body.id;
  const gone = (await api.post(api.account('/lists'), { name: 'Gone list' })).body.id;
  const theirs = (await other.post(other.account('/lists'), { name: 'Other account list' })).body.id;
  for (const list of [listId, secondListId, gone])
    await api.post(api.account(`/lists/${list}/members`), { contact: address, subscription_status: 'confirmed' });
  await api.delete(api.account(`/lists/${gone}`));
  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Prefs',
    from: { email: `news@${sender}` },
    subject: 'Hi',
    html_content: '<p>Hi</p>',
    list_ids: [listId],
  });
  const url = `/u/${unsubscribeToken(campaign.body.id, contact.id)}`;
  const post = (fields: [string, string][]) =>
    publicClient().request('POST', url, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      checkContract: false,
    });

  const page = await publicClient().request('GET', url);
  expect(page.status).toBe(200);
  expect(page.text).toContain(`value="${listId}" checked`);
  expect(page.text).toContain(`value="${secondListId}" checked`);
  expect(page.text).toContain('News &lt;script&gt;');
  expect(page.text).not.toContain('<script>');
  expect(page.text).not.toContain('Stranger list');
  expect(page.text).not.toContain('Gone list');
  expect(page.text).toContain('Unsubscribe from everything');

  const saved = await post([
    ['scope', 'preferences'],
    ['list', secondListId],
    ['list', stranger],
    ['list', theirs],
  ]);
  expect(saved.status).toBe(200);
  expect(saved.text).toContain('Your choices are saved');
  expect(await membership(address, listId)).toBe('unsubscribed');
  expect(await membership(address, secondListId)).toBe('confirmed');
  expect(await membership(address, stranger)).toBeNull();
  expect(await membership(address, gone)).toBe('confirmed');

  await post([
    ['scope', 'preferences'],
    ['list', listId],
    ['list', secondListId],
  ]);
  expect(await membership(address, listId)).toBe('confirmed');

  await post([['scope', 'everything']]);
  expect((await api.get(api.account(`/contacts/${contact.id}`))).body.unsubscribed).toBe(true);
  await post([
    ['scope', 'preferences'],
    ['list', secondListId],
  ]);
  expect((await api.get(api.account(`/contacts/${contact.id}`))).body.unsubscribed).toBe(false);

  // RFC 8058's one-click is unchanged: the campaign's lists only.
  await post([
    ['scope', 'preferences'],
    ['list', listId],
    ['list', secondListId],
  ]);
  expect((await post([['List-Unsubscribe', 'One-Click']])).status).toBe(200);
  expect(await membership(address, listId)).toBe('unsubscribed');
  expect(await membership(address, secondListId)).toBe('confirmed');
});

test('the preferences page names each list as contacts should see it: its public_name (escaped), else its name', async () => {
  const address = email('public-names');
  const contact = (await api.post(api.account('/contacts'), { email: address })).body;
  const titled = (
    await api.post(api.account('/lists'), {
      name: 'Internal: churn risk VIP',
      public_name: `Deals <img src=x onerror=alert(1)> & "more"`,
    })
  ).body.id;
  const plain = (await api.post(api.account('/lists'), { name: `Plain <i>${stamp}</i>` })).body.id;
  await api.post(api.account('/lists'), { name: 'Not theirs', public_name: 'Not theirs either' });
  for (const list of [titled, plain])
    await api.post(api.account(`/lists/${list}/members`), { contact: address, subscription_status: 'confirmed' });
  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Public names',
    from: { email: `news@${sender}` },
    subject: 'Hi',
    html_content: '<p>Hi</p>',
    list_ids: [titled],
  });
  const url = `/u/${unsubscribeToken(campaign.body.id, contact.id)}`;

  const page = (await publicClient().request('GET', url)).text;
  const shownTitle = 'Deals &lt;img src=x onerror=alert(1)&gt; &amp; &quot;more&quot;';
  expect(page).toContain(`value="${titled}" checked> ${shownTitle}</label>`);
  expect(page).toContain(`Unsubscribe from ${shownTitle}</button>`);
  expect(page).toContain(`value="${plain}" checked> Plain &lt;i&gt;${stamp}&lt;/i&gt;</label>`);
  expect(page).not.toContain('churn risk');
  expect(page).not.toContain('Not theirs');
  expect(page).not.toMatch(/<img|<i>/);

  // A public name given later shows at once; the one-click answer names what contacts see.
  await api.put(api.account(`/lists/${plain}`), { public_name: 'Plain, publicly' });
  expect((await publicClient().request('GET', url)).text).toContain(
    `value="${plain}" checked> Plain, publicly</label>`,
  );
  const done = await publicClient().request('POST', url, {
    rawBody: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(done.text).toContain(`will no longer receive ${shownTitle}.`);
  expect(done.text).not.toContain('churn risk');
  expect(await membership(address, titled)).toBe('unsubscribed');
  expect(await membership(address, plain)).toBe('confirmed');
});
