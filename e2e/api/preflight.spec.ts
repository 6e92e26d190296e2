import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { checkOf, PREFLIGHT_CHECK_IDS, startPreflightSite } from '../support/preflight-site';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { verifiedDomain } from '../support/sending';
import { GTUBE, startSpamd, type SpamdHandle } from '../support/spamd';

/**
 * POST .../campaigns/{id}/preflight and .../templates/{id}/preflight (marketing-api.md, Preflight)
 * on a server of its own: it may fetch the loopback site the links point at (ALLOW_PRIVATE_NETWORKS)
 * and scores with a real spamd (SPAMD_URL). The guard without private networks, and no spamd, are
 * in preflight-guard.spec.ts on the shared server.
 */
const stamp = Date.now().toString(36);
const domain = `preflight-${stamp}.example.com`;
let suite: RouteServer;
let spamd: SpamdHandle;
let site: Awaited<ReturnType<typeof startPreflightSite>>;
let api: ApiClient;
let other: ApiClient;
let listId: string;
let emptyListId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = await startSpamd();
  if (!started) throw new Error('spamd is not installed: apt-get install -y spamassassin (scripts/test.js does it)');
  spamd = started;
  site = await startPreflightSite();
  suite = await startRouteServer('Preflight', { SPAMD_URL: spamd.url });
  api = suite.api;
  const second = await createAccountWithKey(suite.server.env, 'Preflight (other account)');
  other = new ApiClient(suite.server.baseUrl, suite.server.dataDir, second.apiKey, second.accountId);
  await verifiedDomain(api, domain);
  expect((await api.put(api.account(`/domains/${domain}`), { sending_type: 'marketing' })).status).toBe(200);
  listId = (await api.post(api.account('/lists'), { name: 'Readers' })).body.id;
  emptyListId = (await api.post(api.account('/lists'), { name: 'Nobody yet' })).body.id;
  const email = `ann-${stamp}@example.org`;
  expect((await api.post(api.account('/contacts'), { email, first_name: 'Ann' })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${listId}/members`), { contacts: [email] })).status).toBeLessThan(300);
});
test.afterAll(async () => {
  await suite?.stop();
  await spamd?.stop();
  await site?.stop();
});

const GOOD_HTML = () =>
  `<html><body><p>Hello {{ first_name }}, the garden club meets on Tuesday evening in the library.</p>` +
  `<p><a href="${site.base}/ok">Read the programme</a> or <a href="${site.base}/to-ok">the map</a>.</p>` +
  `<img src="${site.base}/logo.png" alt="Garden club"></body></html>`;
const GOOD_TEXT = 'Hello {{ first_name }}, the garden club meets on Tuesday evening in the library.';

async function campaign(body: Record<string, unknown> = {}, client = api): Promise<string> {
  const created = await client.post(client.account('/campaigns'), {
    name: 'Autumn letter',
    from: { email: `news@${domain}`, name: 'Garden club' },
    subject: 'Tuesday, {{ first_name }}',
    html_content: GOOD_HTML(),
    text_content: GOOD_TEXT,
    list_ids: [listId],
    ...body,
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

const preflight = (id: string, client = api) => client.post(client.account(`/campaigns/${id}/preflight`));

test('POST /campaigns/{id}/preflight - a campaign that is ready passes every check', async () => {
  const answer = await preflight(await campaign());
  expect(answer.status, answer.text).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(['checked_at', 'checks', 'object', 'status']);
  expect(answer.body.object).toBe('preflight');
  expect(Date.parse(answer.body.checked_at)).not.toBeNaN();
  expect(answer.body.checks.map((entry: any) => entry.id)).toEqual(PREFLIGHT_CHECK_IDS);
  for (const entry of answer.body.checks) {
    expect(Object.keys(entry).sort()).toEqual(['details', 'id', 'message', 'status']);
    expect(entry.status, `${entry.id}: ${entry.message}`).toBe('pass');
  }
  expect(answer.body.status).toBe('pass');
  expect(checkOf(answer.body, 'audience').details).toEqual({ count: 1, shielded: 0 });
  expect(checkOf(answer.body, 'sender').message).toMatch(/p=quarantine/);
  expect(checkOf(answer.body, 'links').details.links).toEqual([
    { url: `${site.base}/ok`, status: 'ok', http_status: 200, result: 'HTTP 200' },
    { url: `${site.base}/to-ok`, status: 'ok', http_status: 200, result: 'HTTP 200 after 1 redirect' },
    // The footer's link is this server's own: listed, never fetched.
    expect.objectContaining({ status: 'skipped', result: 'the unsubscribe link: served by this server' }),
  ]);
  expect(checkOf(answer.body, 'spam_score').details.score).toBeLessThan(3);
});

test('POST /campaigns/{id}/preflight - a broken link fails; an image without alt or that does not load warns', async () => {
  const html =
    `<p>Hi <a href="${site.base}/missing/page">our shop</a> <a href="${site.base}/ok">home</a></p>` +
    `<img src="${site.base}/logo.png"><img src="${site.base}/missing/chart.png" alt="Chart">`;
  const answer = await preflight(await campaign({ html_content: html }));
  expect(answer.status).toBe(200);
  expect(answer.body.status).toBe('fail');
  const links = checkOf(answer.body, 'links');
  expect(links.status).toBe('fail');
  expect(links.message).toContain(`${site.base}/missing/page (HTTP 404)`);
  expect(links.details.links[0]).toEqual({
    url: `${site.base}/missing/page`,
    status: 'broken',
    http_status: 404,
    result: 'HTTP 404',
  });
  const images = checkOf(answer.body, 'images');
  expect(images.status).toBe('warn');
  expect(images.message).toMatch(/1 image has no alt text/);
  expect(images.message).toMatch(/1 image does not load: .*chart\.png \(HTTP 404\)/);
  expect(images.details.images).toEqual([
    { src: `${site.base}/logo.png`, alt: null, status: 'ok', http_status: 200, result: 'HTTP 200' },
    {
      src: `${site.base}/missing/chart.png`,
      alt: 'Chart',
      status: 'broken',
      http_status: 404,
      result: 'HTTP 404',
    },
  ]);
});

test('POST /campaigns/{id}/preflight - spammy content fails with the rules SpamAssassin hit', async () => {
  const answer = await preflight(await campaign({ text_content: `Hello\n${GTUBE}` }));
  const spam = checkOf(answer.body, 'spam_score');
  expect(spam.status).toBe('fail');
  expect(spam.details.score).toBeGreaterThanOrEqual(1000);
  expect(spam.details.rules).toContainEqual(expect.objectContaining({ name: 'GTUBE', score: 1000 }));
  expect(answer.body.status).toBe('fail');
});

test('POST /campaigns/{id}/preflight - an unverified sending domain fails; the content is still checked', async () => {
  const unverified = `preflight-unverified-${stamp}.example.com`;
  expect((await api.post(api.account('/domains'), { domain: unverified })).status).toBe(201);
  const answer = await preflight(await campaign({ from: { email: `news@${unverified}`, name: 'News' } }));
  expect(checkOf(answer.body, 'sender')).toMatchObject({
    status: 'fail',
    message: expect.stringMatching(/not verified/),
  });
  expect(checkOf(answer.body, 'audience').status).toBe('skipped');
  expect(checkOf(answer.body, 'links').status).toBe('pass');
  expect(answer.body.status).toBe('fail');
});

test('POST /campaigns/{id}/preflight - a DMARC policy no longer published warns (a live lookup)', async () => {
  const bare = `preflight-nodmarc-${stamp}.example.com`;
  await verifiedDomain(api, bare);
  expect((await api.put(api.account(`/domains/${bare}`), { sending_type: 'marketing' })).status).toBe(200);
  // Verification required it; it was removed since, and the domain stays verified until its next check.
  await new DnsControl().remove(`_dmarc.${bare}`, 'TXT');
  const answer = await preflight(await campaign({ from: { email: `news@${bare}`, name: 'News' } }));
  expect(checkOf(answer.body, 'sender')).toMatchObject({
    status: 'warn',
    message: expect.stringContaining(`no DMARC policy is published at _dmarc.${bare}`),
  });
  expect(answer.body.status).toBe('warn');
});

test('POST /campaigns/{id}/preflight - an empty audience fails with its count, and the send is refused for it', async () => {
  const id = await campaign({ list_ids: [emptyListId] });
  const answer = await preflight(id);
  expect(checkOf(answer.body, 'audience')).toMatchObject({ status: 'fail', details: { count: 0 } });
  expect((await api.post(api.account(`/campaigns/${id}/send`), {})).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.validation_errors, { timeout: 15_000 })
    .toEqual([expect.objectContaining({ field: 'list_ids', message: expect.stringMatching(/nobody would receive/) })]);
});

test('POST /campaigns/{id}/preflight - an unsubscribe link placed where it renders nothing fails, and the send is refused', async () => {
  const html = '<p>Hello</p>{% if false %}<a href="{{ unsubscribe_url }}">Unsubscribe</a>{% endif %}';
  const id = await campaign({ html_content: html, text_content: null });
  const answer = await preflight(id);
  expect(checkOf(answer.body, 'unsubscribe_link')).toMatchObject({
    status: 'fail',
    details: { field: 'html_content' },
  });
  expect(checkOf(answer.body, 'text_part').status).toBe('pass');
  expect((await api.post(api.account(`/campaigns/${id}/send`), {})).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.validation_errors, { timeout: 15_000 })
    .toEqual([
      expect.objectContaining({ field: 'html_content', message: expect.stringMatching(/no unsubscribe link/) }),
    ]);
});

test('POST /campaigns/{id}/preflight - HTML over 102 KB warns that Gmail clips it', async () => {
  const answer = await preflight(await campaign({ html_content: `<p>${'Garden news. '.repeat(9000)}</p>` }));
  const size = checkOf(answer.body, 'html_size');
  expect(size.status).toBe('warn');
  expect(size.details.bytes).toBeGreaterThan(102 * 1024);
});

test('POST /templates/{id}/preflight - a 100-block visual document over 100 KB warns that Gmail will clip it, with its size', async () => {
  const blocks = Array.from({ length: 100 }, (_, index) => ({
    id: `b${index}`,
    type: 'text',
    text: `Paragraph ${index}: the garden club's news, in **bold** and *italic* words, as long as a real one. `.repeat(
      7,
    ),
  }));
  const created = await api.post(api.account('/templates'), {
    name: 'Long newsletter',
    kind: 'campaign',
    subject: 'News',
    format: 'blocks',
    blocks_content: { version: 1, blocks },
  });
  expect(created.status, created.text).toBe(201);
  expect(Buffer.byteLength(created.body.html_content)).toBeGreaterThan(100 * 1024);
  const size = checkOf((await api.post(api.account(`/templates/${created.body.id}/preflight`))).body, 'html_size');
  expect(size.status).toBe('warn');
  expect(size.message).toMatch(/^the HTML is \d+\.\d KB: Gmail will clip this message/);
  expect(size.details.bytes).toBeGreaterThan(100 * 1024);
});

test('POST /campaigns/{id}/preflight - a link with credentials is never fetched', async () => {
  const withCredentials = site.base.replace('http://', 'http://reader:secret@') + '/ok';
  site.requests.length = 0;
  const answer = await preflight(await campaign({ html_content: `<a href="${withCredentials}">members</a>` }));
  expect(checkOf(answer.body, 'links').details.links[0]).toMatchObject({
    status: 'broken',
    result: 'carries a user name or password: not fetched',
  });
  expect(site.requests.filter((request) => request.authorization)).toEqual([]);
});

test("POST /campaigns/{id}/preflight - a personalised link is listed, never fetched with a subscriber's data", async () => {
  site.requests.length = 0;
  const answer = await preflight(
    await campaign({ html_content: `<p><a href="${site.base}/ok?who={{ email }}">your page</a></p>` }),
  );
  expect(answer.status, answer.text).toBe(200);
  expect(checkOf(answer.body, 'links').details.links).toContainEqual({
    url: `${site.base}/ok?who={{ email }}`,
    status: 'skipped',
    http_status: null,
    result: 'a placeholder that is filled in per recipient',
  });
  expect(site.requests.filter((request) => request.path.includes('who='))).toEqual([]);
});

test('POST /templates/{id}/preflight - the content checks on the draft', async () => {
  const created = await api.post(api.account('/templates'), {
    name: 'Newsletter',
    kind: 'campaign',
    subject: 'News',
    html_content: `<p>Hi {{ first_name }}</p><a href="${site.base}/missing/x">x</a><img src="${site.base}/logo.png">`,
  });
  expect(created.status, created.text).toBe(201);
  const answer = await api.post(api.account(`/templates/${created.body.id}/preflight`));
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.checks.map((entry: any) => entry.id)).toEqual(PREFLIGHT_CHECK_IDS.slice(2));
  expect(checkOf(answer.body, 'links').status).toBe('fail');
  expect(checkOf(answer.body, 'images').status).toBe('warn');
  expect(checkOf(answer.body, 'unsubscribe_link').status).toBe('pass');
  expect(checkOf(answer.body, 'text_part').status).toBe('pass');
  expect(answer.body.status).toBe('fail');

  const transactional = await api.post(api.account('/templates'), {
    name: 'Receipt',
    subject: 'Receipt',
    text_content: 'Thanks {{ first_name }}',
  });
  const receipt = await api.post(api.account(`/templates/${transactional.body.id}/preflight`));
  expect(checkOf(receipt.body, 'unsubscribe_link').status).toBe('skipped');
  expect(receipt.body.status).toBe('pass');
});

test('POST .../preflight - unknown ids and another account are 404; scopes decide', async () => {
  const id = await campaign();
  const template = (await api.post(api.account('/templates'), { name: 'T', subject: 's', text_content: 't' })).body.id;
  for (const path of ['/campaigns/00000000-0000-4000-8000-000000000000', '/campaigns/not-an-id', `/templates/${id}`])
    expect((await api.post(api.account(`${path}/preflight`))).status, path).toBe(404);
  expect((await preflight(id, other)).status).toBe(404);
  expect((await other.post(other.account(`/templates/${template}/preflight`))).status).toBe(404);

  const keyWith = async (scopes: string[]) => {
    const created = await api.post(api.account('/api-keys'), { label: scopes.join(' '), scopes });
    expect(created.status, created.text).toBe(201);
    return api.with(created.body.secret_key);
  };
  const templatesOnly = await keyWith(['templates:read']);
  expect((await preflight(id, templatesOnly)).status).toBe(403);
  expect((await templatesOnly.post(templatesOnly.account(`/templates/${template}/preflight`))).status).toBe(200);
  const campaignsOnly = await keyWith(['campaigns:read']);
  expect((await preflight(id, campaignsOnly)).status).toBe(200);
  expect((await campaignsOnly.post(campaignsOnly.account(`/templates/${template}/preflight`))).status).toBe(403);
});
