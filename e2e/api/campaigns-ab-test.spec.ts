import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { fixture } from '../../tests/lib/core/inbound/report-fixtures';
import { expectError } from '../support/campaign-fixtures';
import type { ApiClient } from '../support/client';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS } from '../support/sending';
import { freePort } from '../support/server';

/**
 * A/B campaigns (marketing-api.md, A/B tests) on a server of their own delivering to a captured
 * mailbox: the test part goes out split across the variants, the winner chosen by hand goes to the
 * rest, each recipient gets exactly one message, and the report's variants add up to its totals.
 */
let suite: MxSuite;
let api: ApiClient;
const stamp = Date.now().toString(36);
const sender = `ab-${stamp}.example.com`;
const recipientDomain = `ab-rcpt-${stamp}.example`;
const AUDIENCE = 20;
const people = Array.from({ length: AUDIENCE }, (_, index) => `p${index}@${recipientDomain}`);
// Reaches SQL as a bound value and the message as a header: it must arrive as written.
const HOSTILE_SUBJECT = `B '); drop table messages;-- <script>alert(1)</script>`;
let listId: string;
let mxPort: number;

test.beforeAll(async () => {
  // Our MX too: a mailbox provider's complaint (ARF) comes back to a message's return path.
  mxPort = await freePort();
  suite = await startMxSuite({
    name: 'AB test',
    sender,
    recipientDomain,
    env: { ROLES: 'web,worker,mx', MX_PORT: String(mxPort) },
  });
  api = suite.api;
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  listId = (await api.post(api.account('/lists'), { name: 'AB readers' })).body.id;
  for (const email of people)
    expect((await api.post(api.account('/contacts'), { email, first_name: 'Pat' })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${listId}/members`), { contacts: people })).status).toBeLessThan(300);
});

test.afterAll(async () => {
  await suite?.stop();
});

const campaigns = (suffix = '') => api.account(`/campaigns${suffix}`);
const get = async (id: string) => (await api.get(campaigns(`/${id}`))).body;
const poll = <T>(read: () => Promise<T>, message: string) =>
  expect.poll(read, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS, message });

test('an A/B campaign: the test part split across variants, the chosen winner to the rest, each person once, variants adding up', async () => {
  const created = await api.post(campaigns(), {
    name: 'AB',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Plain',
    html_content: '<p>Hello {{ first_name }}</p>',
    list_ids: [listId],
    variants: [
      { name: 'Short', subject: 'Subject A {{ first_name }}' },
      { name: 'Hostile', subject: HOSTILE_SUBJECT, from_name: 'Team B', html_content: '<p>Variant B</p>' },
    ],
    ab_test: { test_percent: 50, metric: 'opens', wait_minutes: 15 },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id;
  expect(created.body.variants.map((variant: { id: string }) => variant.id)).toEqual(['a', 'b']);
  expect(created.body).toMatchObject({ ab_phase: null, winner_variant_id: null, ab_test: { test_percent: 50 } });

  // Not waiting yet: a choice is refused.
  expectError(await api.post(campaigns(`/${id}/variants/b/choose`)), 409, /not running/);
  expect((await api.post(campaigns(`/${id}/send`))).status).toBe(200);
  await poll(async () => (await get(id)).ab_phase, 'the test part is queued').toBe('waiting');
  await poll(async () => suite.mx.received.length, 'the test part arrives').toBe(AUDIENCE / 2);
  const waiting = await get(id);
  expect(Date.parse(waiting.ab_wait_until) - Date.now()).toBeGreaterThan(14 * 60_000);

  const tested = suite.mx.received.map((mail) => mail.parsed);
  const bySubject = (subject: string) => tested.filter((mail) => mail.subject === subject);
  expect(bySubject('Subject A Pat')).toHaveLength(AUDIENCE / 4);
  expect(bySubject(HOSTILE_SUBJECT)).toHaveLength(AUDIENCE / 4);
  for (const mail of bySubject(HOSTILE_SUBJECT)) {
    expect(mail.from?.value[0]).toMatchObject({ name: 'Team B', address: `news@${sender}` });
    expect(String(mail.html)).toContain('Variant B');
  }
  for (const mail of bySubject('Subject A Pat')) expect(String(mail.html)).toContain('Hello Pat');

  expectError(await api.post(campaigns(`/${id}/variants/zz/choose`)), 404, /variant zz not found/);
  // Three choices at once: the row lock lets exactly one through; the others find the winner chosen.
  const key = `choose-${stamp}`;
  const choices = await Promise.all([
    api.post(campaigns(`/${id}/variants/b/choose`), undefined, { headers: { 'Idempotency-Key': key } }),
    api.post(campaigns(`/${id}/variants/a/choose`)),
    api.post(campaigns(`/${id}/variants/a/choose`)),
  ]);
  expect(choices.map((choice) => choice.status).sort()).toEqual([200, 409, 409]);
  const chosen = choices.find((choice) => choice.status === 200)!;
  expect(chosen.body.ab_phase).toBe('winner_sent');
  const winner = chosen.body.winner_variant_id as 'a' | 'b';
  for (const refused of choices.filter((choice) => choice.status === 409)) expectError(refused, 409, /winner_sent/);
  // The keyed call answers the same again, whatever it answered.
  const replayed = await api.post(campaigns(`/${id}/variants/b/choose`), undefined, {
    headers: { 'Idempotency-Key': key },
  });
  expect(replayed.status).toBe(choices[0].status);
  const winnerSubject = winner === 'b' ? HOSTILE_SUBJECT : 'Subject A Pat';

  await poll(async () => (await get(id)).status, 'the campaign completes').toBe('sent');
  expect(suite.mx.received).toHaveLength(AUDIENCE);
  for (const email of people) expect(suite.mx.for(email), email).toHaveLength(1);
  const rest = suite.mx.received.slice(AUDIENCE / 2).map((mail) => mail.parsed.subject);
  expect(new Set(rest)).toEqual(new Set([winnerSubject]));

  const report = (await api.get(campaigns(`/${id}/report`))).body;
  expect(
    report.variants.map((variant: any) => [variant.id, variant.name, variant.recipients, variant.is_winner]),
  ).toEqual([
    ['a', 'Short', winner === 'a' ? AUDIENCE - AUDIENCE / 4 : AUDIENCE / 4, winner === 'a'],
    ['b', 'Hostile', winner === 'b' ? AUDIENCE - AUDIENCE / 4 : AUDIENCE / 4, winner === 'b'],
  ]);
  for (const key of ['recipients', 'delivered', 'bounced', 'unique_opened'])
    expect(
      report.variants.reduce((sum: number, variant: any) => sum + variant[key], 0),
      key,
    ).toBe(report.totals[key]);
  expect(report.totals.delivered).toBe(AUDIENCE);

  // One-click unsubscribes from a test mail of each variant and from one of the rest: each counts under
  // the variant that person received (the rest's under the winner), side by side with opens and clicks.
  const unsubscribeUrl = (mail: (typeof suite.mx.received)[number]) =>
    new URL(/href="(https:\/\/[^"]+\/u\/[^"]+)"/.exec(String(mail.parsed.html))![1]).pathname;
  const testMails = suite.mx.received.slice(0, AUDIENCE / 2);
  const clicked = [
    testMails.find((mail) => mail.parsed.subject === 'Subject A Pat')!,
    testMails.find((mail) => mail.parsed.subject === HOSTILE_SUBJECT)!,
    suite.mx.received[AUDIENCE - 1],
  ];
  for (const mail of [...clicked, clicked[0]]) {
    const done = await api.with(null).request('POST', unsubscribeUrl(mail), {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status).toBe(200);
  }
  // A complaint (ARF, as a mailbox provider mails it to the return path) about another test mail of b.
  const complainedOf = testMails.find((mail) => mail.parsed.subject === HOSTILE_SUBJECT && mail !== clicked[1])!;
  const arf = fixture('mailbox-provider-arf.eml', {
    ENVELOPE_TO: complainedOf.from,
    TOKEN: complainedOf.from.slice('bounces+'.length, complainedOf.from.indexOf('@')),
    RP_HOST: `rp.${sender}`,
    RECIPIENT: complainedOf.to[0],
    MESSAGE_ID: String(complainedOf.parsed.messageId),
  });
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, ignoreTLS: true });
  expect((await client.sendMail({ envelope: { from: '', to: [complainedOf.from] }, raw: arf })).response).toMatch(
    /^250 /,
  );
  client.close();
  await poll(async () => (await api.get(campaigns(`/${id}/report`))).body.totals.complained, 'the complaint').toBe(1);
  const counted = (await api.get(campaigns(`/${id}/report`))).body;
  expect(counted.totals.unsubscribed).toBe(3);
  expect(counted.variants.map((variant: any) => [variant.id, variant.unsubscribed, variant.complained])).toEqual([
    ['a', winner === 'a' ? 2 : 1, 0],
    ['b', winner === 'b' ? 2 : 1, 1],
  ]);
  // Each message record names the subject that person received.
  const records = (await api.get(api.account(`/messages?campaign_id=${id}&limit=50`))).body.data;
  expect(records.filter((record: any) => record.subject === winnerSubject)).toHaveLength(AUDIENCE - AUDIENCE / 4);

  // Duplicate: a draft with the same variants and test, none of the progress.
  const copy = await api.post(campaigns(`/${id}/duplicate`));
  expect(copy.status).toBe(201);
  expect(copy.body).toMatchObject({
    status: 'draft',
    ab_phase: null,
    winner_variant_id: null,
    ab_test: waiting.ab_test,
  });
  expect(copy.body.variants).toEqual(waiting.variants);
});

test('validation of variants and ab_test names the field', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ variants: [{ subject: 'only one' }] }, /^variants: must have at least 2 variants/],
    [{ variants: Array.from({ length: 5 }, () => ({ subject: 's' })) }, /^variants: must have at most 4/],
    [{ variants: [{ subject: 'a' }, { subject: 5 }] }, /^variants\.1\.subject: must be a string/],
    [{ variants: [{ subject: 'a' }, { subject: 'x'.repeat(2001) }] }, /^variants\.1\.subject: must be at most/],
    [{ variants: [{ id: 'x' }, { id: 'x' }] }, /^variants: variant ids must be unique/],
    [{ variants: [{ id: 'a b' }, { id: 'c' }] }, /^variants\.0\.id: must be 1-32/],
    [{ variants: [{ subject: 'a', colour: 'red' }, { subject: 'b' }] }, /^variants\.0: unknown field\(s\) colour/],
    [{ variants: [{ subject: 'a' }, { subject: '{{ unclosed' }] }, /^variants\.1\.subject/],
    [{ variants: [{ format: 'markdown' }, { subject: 'b' }] }, /^variants\.0\.markdown_content: is required/],
    [
      { ab_test: { test_percent: 60, metric: 'opens', wait_minutes: 15 } },
      /^ab_test\.test_percent: must be at most 50/,
    ],
    [{ ab_test: { test_percent: 10, metric: 'sales', wait_minutes: 15 } }, /^ab_test\.metric: must be opens or clicks/],
    [
      { ab_test: { test_percent: 10, metric: 'opens', wait_minutes: 14 } },
      /^ab_test\.wait_minutes: must be at least 15/,
    ],
  ];
  for (const [body, message] of cases) {
    const response = await api.post(campaigns(), { name: 'Bad AB', ...body });
    expectError(response, 400, message);
  }
  const templateAndContent = await api.post(campaigns(), {
    name: 'Bad AB',
    variants: [{ template_id: '00000000-0000-4000-8000-000000000001', html_content: '<p>x</p>' }, { subject: 'b' }],
  });
  expectError(templateAndContent, 400, /^variants\.0\.template_id: give either template_id or the content/);
  const unknownTemplate = await api.post(campaigns(), {
    name: 'Bad AB',
    variants: [{ template_id: '00000000-0000-4000-8000-000000000001' }, { subject: 'b' }],
  });
  expectError(unknownTemplate, 400, /^variants\.0\.template_id: no template/);
});

test('variants without ab_test, or an audience too small for the split, go back to draft with the reason', async () => {
  const half = await api.post(campaigns(), {
    name: 'Half AB',
    from: { email: `news@${sender}` },
    subject: 'S',
    html_content: '<p>x</p>',
    list_ids: [listId],
    variants: [{ subject: 'A' }, { subject: 'B' }],
  });
  expect((await api.post(campaigns(`/${half.body.id}/send`))).status).toBe(200);
  await poll(async () => (await get(half.body.id)).status, 'validation refuses it').toBe('draft');
  expect((await get(half.body.id)).validation_errors).toEqual([
    { field: 'ab_test', message: 'variants need ab_test (test_percent, metric, wait_minutes)' },
  ]);

  // Four people of their own: the first test's complaint suppresses one of `people`, at random.
  const few = Array.from({ length: 4 }, (_, index) => `small${index}@${recipientDomain}`);
  for (const email of few) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  const small = (await api.post(api.account('/lists'), { name: 'Small' })).body.id;
  expect((await api.post(api.account(`/lists/${small}/members`), { contacts: few })).status).toBeLessThan(300);
  const tiny = await api.post(campaigns(), {
    name: 'Tiny AB',
    from: { email: `news@${sender}` },
    subject: 'S',
    html_content: '<p>x</p>',
    list_ids: [small],
    variants: [{ subject: 'A' }, { subject: 'B' }, { subject: 'C' }, { subject: 'D' }],
    ab_test: { test_percent: 50, metric: 'clicks', wait_minutes: 15 },
  });
  expect((await api.post(campaigns(`/${tiny.body.id}/send`))).status).toBe(200);
  await poll(async () => (await get(tiny.body.id)).status, 'the start refuses it').toBe('draft');
  expect((await get(tiny.body.id)).validation_errors).toEqual([
    {
      field: 'ab_test',
      message:
        'an A/B test of 4 variants needs at least 5 recipients (one per variant and one for the winner); the audience has 4',
    },
  ]);
});

test("a variant's template is pinned when sending starts: a version published during the wait does not reach the rest", async () => {
  const readers = Array.from({ length: 8 }, (_, index) => `t${index}@${recipientDomain}`);
  const list = (await api.post(api.account('/lists'), { name: 'AB template readers' })).body.id;
  for (const email of readers) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${list}/members`), { contacts: readers })).status).toBeLessThan(300);
  const template = await api.post(api.account('/templates'), {
    name: `AB letter ${stamp}`,
    kind: 'campaign',
    subject: 'Letter v1',
    html_content: '<p>Version one</p>',
  });
  expect(template.status, template.text).toBe(201);
  expect((await api.post(api.account(`/templates/${template.body.id}/publish`))).status).toBe(201);
  const created = await api.post(campaigns(), {
    name: 'AB template',
    from: { email: `news@${sender}` },
    subject: 'Own subject',
    html_content: '<p>Own content</p>',
    list_ids: [list],
    variants: [{ name: 'Own' }, { name: 'Template', template_id: template.body.id }],
    ab_test: { test_percent: 50, metric: 'opens', wait_minutes: 15 },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id;
  const mailsTo = () => readers.flatMap((email) => suite.mx.for(email));
  expect((await api.post(campaigns(`/${id}/send`))).status).toBe(200);
  await poll(async () => (await get(id)).ab_phase, 'the test part is queued').toBe('waiting');
  await poll(async () => mailsTo().length, 'the test part arrives').toBe(4);

  // The template is edited and published while the test waits.
  const edited = await api.put(api.account(`/templates/${template.body.id}`), {
    subject: 'Letter v2',
    html_content: '<p>Version two</p>',
  });
  expect(edited.status, edited.text).toBe(200);
  expect((await api.post(api.account(`/templates/${template.body.id}/publish`))).status).toBe(201);
  expect((await api.post(campaigns(`/${id}/variants/b/choose`))).status).toBe(200);
  await poll(async () => (await get(id)).status, 'the campaign completes').toBe('sent');

  const fromTemplate = mailsTo().filter((mail) => mail.parsed.subject?.startsWith('Letter'));
  expect(fromTemplate).toHaveLength(8 - 2);
  for (const mail of fromTemplate) {
    expect(mail.parsed.subject).toBe('Letter v1');
    expect(String(mail.parsed.html)).toContain('Version one');
  }
  for (const email of readers) expect(suite.mx.for(email), email).toHaveLength(1);
});
