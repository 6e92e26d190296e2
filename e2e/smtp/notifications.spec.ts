import { expect, test } from '@playwright/test';
import { createAccountWithKey, OWNER_PASSWORD, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { serverSession } from '../support/dashboard-session';
import { DnsControl } from '../support/dns-server';
import type { ReceivedMail } from '../support/mx-server';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS, verifiedDomain } from '../support/sending';
import { startServer, type ServerHandle } from '../support/server';

/**
 * Alerts mailed to an account's owner and Administrators from the system sender, through the
 * delivery engine to a loopback MX: a key holding every scope, a verified domain's DNS breaking, a
 * webhook turning itself off, a domain paused by bounces, a campaign finishing and a sub account
 * refused at its monthly cap. Developers and Analysts
 * get none, nor does an Administrator who turned the kind off; one mail per kind, resource and hour.
 * Without SYSTEM_SENDER nothing is mailed: tests/lib/core/notifications/notify-people.test.ts.
 */
const stamp = Date.now().toString(36);
const sender = `alerts-${stamp}.example.com`;
const rcpt = `notify-${stamp}.example`;
const TEAM_NAME = 'Team <i>Rocket</i>';

let suite: MxSuite;
let api: ApiClient;
let accountId: string;
const people = {
  owner: `owner-${stamp}@${rcpt}`,
  admin: `admin-${stamp}@${rcpt}`,
  quiet: `quiet-${stamp}@${rcpt}`,
  developer: `dev-${stamp}@${rcpt}`,
  analyst: `analyst-${stamp}@${rcpt}`,
};
let teamDomain: string;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  suite = await startMxSuite({
    name: 'Notifications',
    sender,
    recipientDomain: rcpt,
    env: {
      SYSTEM_SENDER: `Mailstead Alerts <alerts@${sender}>`,
      DNS_RECHECK_INTERVAL_SECONDS: '1',
      JOB_POLL_MS: '200',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_DISABLE_AFTER_FAILURES: '2',
      WEBHOOK_DISABLE_AFTER_SECONDS: '0',
      PAUSE_MIN_VOLUME: '6',
      PAUSE_BOUNCE_RATE: '0.3',
    },
  });
  const env = suite.server.env;
  const team = await createAccountWithKey(env, TEAM_NAME, people.owner);
  accountId = team.accountId;
  api = new ApiClient(suite.server.baseUrl, suite.server.dataDir, team.apiKey, accountId);
  expect((await runCli(['accounts', 'set-tier', accountId, 'partner'], env)).code).toBe(0);
  const roles = { admin: 'Administrator', quiet: 'Administrator', developer: 'Developer', analyst: 'Analyst' } as const;
  for (const [who, role] of Object.entries(roles)) {
    const email = people[who as keyof typeof roles];
    const added = await runCli(
      ['accounts', 'add-member', accountId, '--email', email, '--password', OWNER_PASSWORD, '--role', role],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
  }
  // The quiet Administrator turns every kind off on their profile.
  const quietId = await userIdOf(people.quiet);
  const session = await serverSession(suite.server, quietId);
  const kinds = (await api.with(null).get('/internal/me/notification-preferences', { headers: session })).body.data;
  const off = await api
    .with(null)
    .put(
      '/internal/me/notification-preferences',
      { preferences: kinds.map((kind: { kind: string }) => ({ kind: kind.kind, is_enabled: false })) },
      { headers: session },
    );
  expect(off.status, off.text).toBe(200);
  teamDomain = `team-${stamp}.example.com`;
  await verifiedDomain(api, teamDomain);
});

test.afterAll(async () => {
  await suite?.stop();
});

async function userIdOf(email: string): Promise<string> {
  const members = (await api.get(api.account('/members'))).body.data as { email: string; user_id: string }[];
  return members.find((member) => member.email === email)!.user_id;
}

const mailsTo = (email: string, subject: string): ReceivedMail[] =>
  suite.mx.for(email).filter((mail) => mail.parsed.subject === subject);

/** The owner and the Administrator get exactly one each; nobody else gets any. */
async function expectOneEachForAdministrators(subject: string): Promise<ReceivedMail> {
  for (const email of [people.owner, people.admin])
    await expect
      .poll(() => mailsTo(email, subject).length, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS })
      .toBe(1);
  // Mail that would have been queued with the others has had the same time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(mailsTo(people.owner, subject)).toHaveLength(1);
  expect(mailsTo(people.admin, subject)).toHaveLength(1);
  for (const email of [people.quiet, people.developer, people.analyst]) expect(mailsTo(email, subject)).toEqual([]);
  const [mail] = mailsTo(people.owner, subject);
  expect(mail.parsed.from?.value[0]).toMatchObject({ address: `alerts@${sender}`, name: 'Mailstead Alerts' });
  expect(mail.to).toEqual([people.owner]);
  expect(mail.parsed.text).toContain(`/${accountId}/profile`);
  return mail;
}

test('a key holding every scope mails the owner and the Administrator once each, with a link to the keys; a hostile label stays text', async () => {
  const label = `Deploy\r\nBcc: evil-${stamp}@${rcpt}\r\n<script>alert(1)</script> <b>key</b>`;
  const created = await api.post(api.account('/api-keys'), { label, scopes: ['*'] });
  expect(created.status, created.text).toBe(201);
  const subject = `A full-access API key "Deploy Bcc: evil-${stamp}@${rcpt} <script>alert(1)</script> <b>key</b>" was created`;
  const mail = await expectOneEachForAdministrators(subject);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/api-keys`);
  expect(mail.parsed.html).toContain(`href="${suite.server.baseUrl}/${accountId}/api-keys"`);
  expect(mail.parsed.html).not.toContain('<script>');
  expect(mail.parsed.html).not.toContain('<b>key</b>');
  expect(mail.parsed.html).toContain('&lt;script&gt;');
  expect(mail.parsed.headers.has('bcc')).toBe(false);
  expect(suite.mx.for(`evil-${stamp}@${rcpt}`)).toEqual([]);
  // The account's name is text too.
  expect(mail.parsed.html).toContain('Team &lt;i&gt;Rocket&lt;/i&gt;');

  // A narrower key, however many scopes, mails nobody.
  const narrow = await api.post(api.account('/api-keys'), {
    label: `narrow-${stamp}`,
    scopes: ['domains:read', 'messages:send:all'],
  });
  expect(narrow.status).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(suite.mx.for(people.owner).filter((received) => received.parsed.subject?.includes(`narrow-${stamp}`))).toEqual(
    [],
  );
});

test("a verified domain's DNS breaking mails once; breaking again within the hour mails no more", async () => {
  const dns = new DnsControl();
  const subject = `DNS records of ${teamDomain} stopped working`;
  await dns.remove(`_dmarc.${teamDomain}`);
  const mail = await expectOneEachForAdministrators(subject);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/domains/${teamDomain}`);
  expect(mail.parsed.text).toContain(`DMARC at _dmarc.${teamDomain}`);

  const records = (await api.get(api.account(`/domains/${teamDomain}`))).body.dns_records;
  await dns.publish(records);
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${teamDomain}`))).body.dns_valid, { timeout: 20_000 })
    .toBe(true);
  await dns.remove(`_dmarc.${teamDomain}`);
  await expect
    .poll(
      async () => {
        const listed = await runCli(
          ['events', 'list', accountId, '--type', 'domain.dns_error', '--json'],
          suite.server.env,
        );
        return JSON.parse(listed.stdout).length;
      },
      { timeout: 20_000 },
    )
    .toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(mailsTo(people.owner, subject)).toHaveLength(1);
  expect(mailsTo(people.admin, subject)).toHaveLength(1);
  await dns.publish(records);
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${teamDomain}`))).body.dns_valid, { timeout: 20_000 })
    .toBe(true);
});

test('a webhook that turns itself off after failures mails its name, escaped, and a link to it', async () => {
  const name = `<img src=x onerror=alert(1)> Hook ${stamp}`;
  const created = await api.post(api.account('/webhooks'), {
    name,
    url: 'https://127.0.0.1:1/down',
    scope: 'global',
    on_delivered: true,
  });
  expect(created.status, created.text).toBe(201);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `app@${teamDomain}` },
    recipients: [{ email: `sandbox@${rcpt}` }],
    subject: 'hello',
    text_content: 'x',
    sandbox: true,
  });
  expect(sent.status, sent.text).toBe(202);
  await expect
    .poll(async () => (await api.get(api.account(`/webhooks/${created.body.id}`))).body.enabled, { timeout: 30_000 })
    .toBe(false);
  const mail = await expectOneEachForAdministrators(`Webhook "${name}" was turned off`);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/webhooks/${created.body.id}`);
  expect(mail.parsed.text).toContain('2 failed deliveries in a row');
  expect(mail.parsed.html).not.toContain('<img');
  expect(mail.parsed.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
});

test('a domain paused by its bounce rate mails once, with the rate and a link to the domain', async () => {
  const bouncy = `bouncy-${stamp}.example.com`;
  await verifiedDomain(api, bouncy);
  for (let i = 0; i < 4; i++) suite.mx.script(`bad${i}-${stamp}@${rcpt}`, { code: 550, message: '5.1.1 no such user' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${bouncy}` },
    recipients: [
      ...Array.from({ length: 4 }, (_, i) => ({ email: `bad${i}-${stamp}@${rcpt}` })),
      { email: `ok1-${stamp}@${rcpt}` },
      { email: `ok2-${stamp}@${rcpt}` },
    ],
    subject: 'Bouncy',
    text_content: 'x',
  });
  expect(sent.status, sent.text).toBe(202);
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${bouncy}`))).body.paused, { timeout: 30_000 })
    .toBe(true);
  const mail = await expectOneEachForAdministrators(`Sending from ${bouncy} is paused`);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/domains/${bouncy}`);
  expect(mail.parsed.text).toMatch(/Reason: \d of the last \d messages bounced/);
  // Paused by the system, not a person: the audit log says so, once.
  const audited = await api.get(api.account(`/audit-events?action=domain.pause&resource_id=${bouncy}`));
  expect(audited.status, audited.text).toBe(200);
  expect(audited.body.data).toEqual([
    expect.objectContaining({
      action: 'domain.pause',
      actor: expect.objectContaining({ type: 'system' }),
      resource: { type: 'domain', id: bouncy },
      changes: ['is_paused'],
    }),
  ]);
});

test('a campaign that finishes mails its name and a link to its report', async () => {
  const news = `news-${stamp}.example.com`;
  await verifiedDomain(api, news);
  expect((await api.put(api.account(`/domains/${news}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = (await api.post(api.account('/lists'), { name: `Readers ${stamp}` })).body;
  const reader = `reader-${stamp}@${rcpt}`;
  expect((await api.post(api.account('/contacts'), { email: reader })).status).toBe(201);
  await api.post(api.account(`/lists/${list.id}/members`), { contacts: [reader] });
  const name = `Autumn <em>news</em> ${stamp}`;
  const created = await api.post(api.account('/campaigns'), {
    name,
    from: { email: `news@${news}`, name: 'News' },
    subject: 'Autumn',
    html_content: '<html><body><p>Hello</p></body></html>',
    text_content: 'Hello',
    list_ids: [list.id],
  });
  expect(created.status, created.text).toBe(201);
  expect((await api.post(api.account(`/campaigns/${created.body.id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${created.body.id}`))).body.status, { timeout: 60_000 })
    .toBe('sent');
  const mail = await expectOneEachForAdministrators(`Campaign "${name}" has finished sending`);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/campaigns/${created.body.id}`);
  expect(mail.parsed.html).not.toContain('<em>');
});

test("a sub account refused at its monthly cap mails the partner's people once, even for parallel sends (on PostgreSQL through two processes)", async () => {
  const sub = await api.post(api.account('/sub-accounts'), {
    name: `Client ${stamp}`,
    website: 'client.example.com',
    monthly_credit: 1,
  });
  expect(sub.status, sub.text).toBe(201);
  const key = await api.post(api.account(`/sub-accounts/${sub.body.id}/api-keys`), {
    label: 'child',
    scopes: ['domains:read', 'domains:write', 'messages:send:all'],
  });
  expect(key.status, key.text).toBe(201);
  const child = api.with(key.body.secret_key, sub.body.id);
  const childDomain = `client-${stamp}.example.com`;
  await verifiedDomain(child, childDomain);
  const send = (client: ApiClient) =>
    client.post(client.account('/messages'), {
      from: { email: `app@${childDomain}` },
      recipients: [{ email: `someone@${rcpt}` }],
      subject: 'capped',
      text_content: 'x',
      sandbox: true,
    });
  expect((await send(child)).status).toBe(202);

  // On PostgreSQL a second process shares the database: the once-an-hour key decides across both.
  let second: ServerHandle | null = null;
  const clients = [child];
  if (suite.server.env.DATABASE_URL) {
    second = await startServer({
      env: {
        DATABASE_URL: suite.server.env.DATABASE_URL,
        MAILSTEAD_SECRET: suite.server.env.MAILSTEAD_SECRET,
        SYSTEM_SENDER: suite.server.env.SYSTEM_SENDER,
        ROLES: 'web',
      },
    });
    clients.push(new ApiClient(second.baseUrl, second.dataDir, key.body.secret_key, sub.body.id));
  }
  try {
    const refused = await Promise.all([0, 1, 2, 3].map((i) => send(clients[i % clients.length])));
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403]);
  } finally {
    await second?.stop();
  }
  const mail = await expectOneEachForAdministrators(`Sub account "Client ${stamp}" reached its monthly cap`);
  expect(mail.parsed.text).toContain(`${suite.server.baseUrl}/${accountId}/sub-accounts/${sub.body.id}`);
  expect(mail.parsed.text).toMatch(/monthly_credit reached/);
  // A later refusal in the same hour mails no more.
  expect((await send(child)).status).toBe(403);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(mailsTo(people.owner, `Sub account "Client ${stamp}" reached its monthly cap`)).toHaveLength(1);
});

test('preferences: a person reads and sets only their own; an API key is refused; a bad kind is a 400 naming it', async () => {
  const ownerId = await userIdOf(people.owner);
  const session = await serverSession(suite.server, ownerId);
  const anonymous = api.with(null);
  const read = await anonymous.get('/internal/me/notification-preferences', { headers: session });
  expect(read.status).toBe(200);
  expect(read.body.object).toBe('notification_preferences');
  expect(read.body.data.every((kind: { is_enabled: boolean }) => kind.is_enabled)).toBe(true);
  expect(read.body.data.map((kind: { kind: string }) => kind.kind)).toContain('campaign_finished');

  const set = await anonymous.put(
    '/internal/me/notification-preferences',
    { preferences: [{ kind: 'campaign_finished', is_enabled: false }] },
    { headers: session },
  );
  expect(set.status).toBe(200);
  expect(set.body.data.find((kind: { kind: string }) => kind.kind === 'campaign_finished').is_enabled).toBe(false);
  // The Administrator's own choices are untouched.
  const adminSession = await serverSession(suite.server, await userIdOf(people.admin));
  const admins = (await anonymous.get('/internal/me/notification-preferences', { headers: adminSession })).body;
  expect(admins.data.every((kind: { is_enabled: boolean }) => kind.is_enabled)).toBe(true);

  const bad = await anonymous.put(
    '/internal/me/notification-preferences',
    { preferences: [{ kind: 'everything', is_enabled: false }] },
    { headers: session },
  );
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/kind/);
  const crossSite = await anonymous.put(
    '/internal/me/notification-preferences',
    { preferences: [{ kind: 'campaign_finished', is_enabled: true }] },
    { headers: { ...session, origin: 'https://evil.example' } },
  );
  expect(crossSite.status).toBe(403);
  expect((await api.get('/internal/me/notification-preferences')).status).toBe(401);
  await anonymous.put(
    '/internal/me/notification-preferences',
    { preferences: [{ kind: 'campaign_finished', is_enabled: true }] },
    { headers: session },
  );
});
