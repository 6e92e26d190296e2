import { expect, test } from '@playwright/test';
import { campaignAccounts } from '../support/campaign-fixtures';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { checkOf, startPreflightSite } from '../support/preflight-site';

/**
 * Preflight on the shared server, which has no ALLOW_PRIVATE_NETWORKS and no SPAMD_URL: links to
 * loopback or to names that resolve there are refused by the webhooks' SSRF guard without a
 * request, the number of URLs fetched is capped, and the spam score is skipped with why.
 */
const stamp = Date.now().toString(36);
let suite: Awaited<ReturnType<typeof campaignAccounts>>;
let site: Awaited<ReturnType<typeof startPreflightSite>>;
let api: ApiClient;

test.beforeAll(async () => {
  site = await startPreflightSite();
  suite = await campaignAccounts();
  api = suite.api;
});
test.afterAll(async () => site?.stop());

async function preflightOf(html: string) {
  const created = await api.post(api.account('/campaigns'), {
    name: 'Guarded',
    from: { email: `news@${suite.sender}`, name: 'News' },
    subject: 'Hi',
    html_content: html,
    text_content: 'Hi',
    list_ids: [suite.listId],
  });
  expect(created.status, created.text).toBe(201);
  const answer = await api.post(api.account(`/campaigns/${created.body.id}/preflight`));
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

test('POST /campaigns/{id}/preflight - links to private addresses are refused by the SSRF guard, never fetched', async () => {
  const rebound = `rebound-${stamp}.example.com`;
  await new DnsControl().setA(rebound, '127.0.0.1');
  site.requests.length = 0;
  const port = new URL(site.base).port;
  const body = await preflightOf(
    `<a href="${site.base}/ok">loopback</a><a href="http://${rebound}:${port}/ok">rebound</a>` +
      `<a href="http://[::1]:${port}/ok">v6</a><a href="http://10.1.2.3/">lan</a>`,
  );
  const links = checkOf(body, 'links');
  expect(links.status).toBe('fail');
  expect(links.details.links.map((entry: any) => [entry.status, entry.result])).toEqual([
    ['broken', '127.0.0.1 is not a public address'],
    ['broken', `${rebound} resolves only to addresses that are not public (127.0.0.1)`],
    ['broken', '::1 is not a public address'],
    ['broken', '10.1.2.3 is not a public address'],
    ['skipped', 'the unsubscribe link: served by this server'],
  ]);
  expect(site.requests).toEqual([]);
});

test('POST /campaigns/{id}/preflight - without SPAMD_URL the spam score is skipped and says why', async () => {
  const spam = checkOf(await preflightOf('<p>Hello</p>'), 'spam_score');
  expect(spam).toEqual({
    id: 'spam_score',
    status: 'skipped',
    message: 'SPAMD_URL is not set: no SpamAssassin to score the message',
    details: null,
  });
});

test('POST /campaigns/{id}/preflight - many links: at most 40 are fetched, the rest listed as not checked', async () => {
  const html = Array.from({ length: 60 }, (_, n) => `<a href="http://10.0.0.${n + 1}/">${n}</a>`).join(' ');
  const links = checkOf(await preflightOf(html), 'links').details.links;
  expect(links).toHaveLength(61);
  expect(links.filter((entry: any) => entry.status === 'broken')).toHaveLength(40);
  expect(links.filter((entry: any) => /^not checked: over 40 URLs$/.test(entry.result))).toHaveLength(20);
});

test('POST /campaigns/{id}/preflight - hrefs that are not web links are listed, not fetched; a relative one is broken', async () => {
  const body = await preflightOf(
    '<a href="mailto:a@example.com">m</a><a href="tel:+4412345">t</a><a href="javascript:alert(1)">j</a>' +
      '<a href="/relative">r</a><a href="file:///etc/passwd">f</a>',
  );
  const links = checkOf(body, 'links');
  expect(links.status).toBe('fail');
  expect(links.details.links.map((entry: any) => [entry.status, entry.result]).slice(0, 5)).toEqual([
    ['skipped', 'not a web link (mailto)'],
    ['skipped', 'not a web link (tel)'],
    ['skipped', 'not a web link (javascript)'],
    ['broken', 'a relative link: mail needs a full https:// URL'],
    ['skipped', 'not a web link (file)'],
  ]);
});
