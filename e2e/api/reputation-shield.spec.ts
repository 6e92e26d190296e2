import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The account's Reputation Shield (reject_bad_recipients, reject_mistyped_recipients): off by
 * default; when on, the v2 send reports refused recipients per recipient beside the accepted ones,
 * v1 counts them as failed, and a conversation is refused whole. (SMTP's 553 is in e2e/smtp.)
 */
let api: ApiClient;
let v1Key: string;
const sender = `shield-${Date.now().toString(36)}.example.com`;

test.beforeAll(async () => {
  ({ api } = await newAccount('Shield'));
  await verifiedDomain(api, sender);
  const created = await runCli(
    ['accounts', 'v1-key', api.accountId!, '--label', 'shield', '--json'],
    sharedServer().cliEnv,
  );
  expect(created.code).toBe(0);
  v1Key = JSON.parse(created.stdout).key;
});

const RECIPIENTS = [
  'good@example.org',
  'temp@mailinator.com',
  'typo@gmial.com',
  'sub@eu.yopmail.com',
  'fine@gmail.com',
];
const send = () =>
  api.post(api.account('/messages'), {
    from: { email: `app@${sender}` },
    recipients: RECIPIENTS.map((email) => ({ email })),
    subject: 'shield',
    text_content: 'x',
    sandbox: true,
  });
const shield = (on: { bad: boolean; mistyped: boolean }) =>
  api.put(api.account(), { reject_bad_recipients: on.bad, reject_mistyped_recipients: on.mistyped });

test.describe.configure({ mode: 'serial' });

test('off by default: every well-formed recipient is queued', async () => {
  const response = await send();
  expect(response.status, response.text).toBe(202);
  expect(response.body.data.map((row: { status: string }) => row.status)).toEqual([
    'queued',
    'queued',
    'queued',
    'queued',
    'queued',
  ]);
});

test('reject_bad_recipients: disposable domains (and their subdomains) are errors per recipient, the rest queued', async () => {
  expect((await shield({ bad: true, mistyped: false })).body).toMatchObject({
    reject_bad_recipients: true,
    reject_mistyped_recipients: false,
  });
  const response = await send();
  expect(response.status, response.text).toBe(202);
  const rows = response.body.data as {
    status: string;
    id: string | null;
    error: string | null;
    recipient: { email: string };
  }[];
  expect(rows.map((row) => row.status)).toEqual(['queued', 'error', 'queued', 'error', 'queued']);
  expect(rows[1]).toMatchObject({ id: null, error: expect.stringMatching(/disposable.*reject_bad_recipients/) });
});

test('reject_mistyped_recipients: likely typos of big providers are errors too; all refused is 400', async () => {
  await shield({ bad: true, mistyped: true });
  const response = await send();
  const rows = response.body.data as { status: string; error: string | null }[];
  expect(rows.map((row) => row.status)).toEqual(['queued', 'error', 'error', 'error', 'queued']);
  expect(rows[2].error).toMatch(/typo of gmail\.com.*reject_mistyped_recipients/);

  const none = await api.post(api.account('/messages'), {
    from: { email: `app@${sender}` },
    recipients: [{ email: 'a@gmail.con' }],
    subject: 'x',
    text_content: 'x',
    sandbox: true,
  });
  expect(none.status).toBe(400);
  expect(none.body.message).toMatch(/no recipient could be accepted.*typo of gmail\.com/);
});

test('conversation: one refused recipient refuses the message, naming it', async () => {
  const response = await api.post(api.account('/messages/conversation'), {
    from: { email: `app@${sender}` },
    to: [{ email: 'good@example.org' }],
    cc: [{ email: 'x@mailinator.com' }],
    subject: 'x',
    text_content: 'x',
    sandbox: true,
  });
  expect(response.status).toBe(400);
  expect(response.body.message).toMatch(/^cc\.0\.email: recipient domain mailinator\.com is a disposable/);
});

test('v1: refused recipients are counted as failed with the reason', async () => {
  const response = await api.request('POST', '/v1/email/send', {
    apiKey: null,
    headers: { 'X-Api-Key': v1Key },
    body: {
      from: { email: `app@${sender}` },
      recipients: [{ email: 'good@example.org' }, { email: 'typo@hotmial.com' }],
      content: { subject: 'x', text_body: 'x', headers: { 'AhaSend-Sandbox': 'true' } },
    },
  });
  expect(response.status).toBe(201);
  expect(response.body).toMatchObject({
    success_count: 1,
    fail_count: 1,
    failed_recipients: ['typo@hotmial.com'],
    errors: [expect.stringMatching(/typo of hotmail\.com/)],
  });
});

test('switched off again, the same recipients are queued', async () => {
  await shield({ bad: false, mistyped: false });
  expect((await send()).body.data.every((row: { status: string }) => row.status === 'queued')).toBe(true);
});

test('Reputation Shield on campaigns: the addresses it refuses on API sends are left out of the audience, and preflight says how many', async () => {
  const { api: shielded } = await newAccount('Shield (campaigns)');
  const stamp = Date.now().toString(36);
  const domain = `campaign-${sender}`;
  await verifiedDomain(shielded, domain);
  expect((await shielded.put(shielded.account(`/domains/${domain}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = (await shielded.post(shielded.account('/lists'), { name: 'Mixed' })).body.id;
  const members = [`fine-${stamp}@example.org`, `temp-${stamp}@mailinator.com`, `typo-${stamp}@gmial.com`];
  for (const member of members) await shielded.post(shielded.account('/contacts'), { email: member });
  await shielded.post(shielded.account(`/lists/${list}/members`), { contacts: members });
  const campaign = (
    await shielded.post(shielded.account('/campaigns'), {
      name: 'Shielded',
      from: { email: `news@${domain}` },
      subject: 'Hi',
      html_content: '<p>Hi</p>',
      list_ids: [list],
    })
  ).body.id;
  const audience = async () =>
    (await shielded.post(shielded.account(`/campaigns/${campaign}/preflight`))).body.checks.find(
      (check: { id: string }) => check.id === 'audience',
    );
  expect((await audience()).details).toMatchObject({ count: 3 });
  await shielded.put(shielded.account(), { reject_bad_recipients: true, reject_mistyped_recipients: true });
  const checked = await audience();
  expect(checked.details).toMatchObject({ count: 1, shielded: 2 });
  expect(checked.message).toContain('2 left out by Reputation Shield');
});
