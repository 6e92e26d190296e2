import { expect, test } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';

/**
 * Signup forms (marketing-api.md, Signup forms and double opt-in): the CRUD under /signup-forms and
 * the public pages on PUBLIC_URL (/f/{form_id}, /f/confirm/{token}), on the shared server. The
 * confirmation mail is read back from the account's own message record, as queued.
 */
const stamp = Date.now().toString(36);
const sender = `signup-${stamp}.example.com`;
const HOSTILE = '<script>alert(1)</script> & "quotes"';
let api: ApiClient;
let other: ApiClient;
let listId: string;
let secondListId: string;
let formId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const account = await newAccount('Signup forms');
  api = account.api;
  ({ api: other } = await newAccount('Signup forms (other account)'));
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  listId = (await api.post(api.account('/lists'), { name: `News ${HOSTILE}` })).body.id;
  secondListId = (await api.post(api.account('/lists'), { name: 'Offers' })).body.id;
  const session = await dashboardSession(account.ownerId);
  const defined = await api.with(null).request('POST', `/internal/accounts/${api.accountId}/contact-attributes`, {
    body: { key: 'age', type: 'number', label: `Age ${HOSTILE}` },
    headers: session,
    checkContract: false,
  });
  expect(defined.status, defined.text).toBe(201);
});

const forms = (suffix = '', client = api) => client.account(`/signup-forms${suffix}`);
const email = (name: string) => `${name}-${stamp}@example.org`;
// Public posts come from a loopback address of this spec's own: signups are limited per client
// address, and the shared server's other specs (the dashboard's signup pages) post from 127.0.0.1.
const publicClient = () => api.with(null).from('127.0.0.66');
const postJson = (id: string, body: unknown) =>
  publicClient().request('POST', `/f/${id}`, { body, checkContract: false });
const postForm = (id: string, fields: Record<string, string>) =>
  publicClient().request('POST', `/f/${id}`, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    checkContract: false,
  });
const membership = async (address: string, list = listId) => {
  const response = await api.get(api.account(`/contacts/${encodeURIComponent(address)}/lists`));
  if (response.status === 404) return 'no contact';
  return response.body.data.find((row: { list_id: string }) => row.list_id === list)?.subscription_status ?? null;
};
/** The confirmation mails queued to an address, newest first, with their text. */
async function confirmationMails(address: string): Promise<{ subject: string; text: string; html: string }[]> {
  const listed = await api.get(api.account(`/messages?recipient=${encodeURIComponent(address)}&limit=100`));
  const mails = [];
  for (const message of listed.body.data) {
    const detail = (await api.get(api.account(`/messages/${encodeURIComponent(message.id)}`))).body;
    const part = (type: string) =>
      detail.content_parsed?.parts.find((p: { content_type: string }) => p.content_type === type)?.content ?? '';
    mails.push({ subject: detail.subject, text: part('text/plain'), html: part('text/html') });
  }
  return mails;
}
const linkIn = (text: string) => /https:\/\/[^\s]+\/f\/confirm\/([A-Za-z0-9]+)/.exec(text)![1];
const sameAnswer = (a: ApiResponse, b: ApiResponse) => {
  expect(a.status).toBe(b.status);
  expect(a.text).toBe(b.text);
};

test('POST /signup-forms - 201 with public_url and embed_html; lists, fields and redirect are checked', async () => {
  const created = await api.post(forms(), {
    name: `Join ${HOSTILE}`,
    list_ids: [listId],
    fields: ['age'],
    confirmation_subject: `Confirm ${HOSTILE}`,
    confirmation_text: `Hello ${HOSTILE}, click {{ confirm_url }} to join. {{ 7*7 }}`,
  });
  expect(created.status, created.text).toBe(201);
  formId = created.body.id;
  expect(created.body).toMatchObject({
    object: 'signup_form',
    list_ids: [listId],
    double_opt_in: true,
    fields: ['age'],
    redirect_url: null,
    signup_count: 0,
    confirmation_from: `no-reply@${sender}`,
  });
  expect(created.body.public_url).toMatch(new RegExp(`^https://[^/]+/f/${formId}$`));
  expect(created.body.embed_html).toContain(`action="${created.body.public_url}"`);
  expect(created.body.embed_html).toContain('name="hp_website"');
  expect(created.body.embed_html).not.toContain('<script>');

  const refused: [Record<string, unknown>, string][] = [
    [{ list_ids: [] }, 'list_ids'],
    [{ list_ids: ['01a20000-0000-7000-8000-000000000009'] }, 'list_ids'],
    [{ list_ids: [(await other.post(other.account('/lists'), { name: 'Theirs' })).body.id] }, 'list_ids'],
    [{ fields: ['shoe_size'] }, 'fields'],
    [{ fields: ['email'] }, 'fields'],
    [{ redirect_url: 'http://example.com/thanks' }, 'redirect_url'],
    [{ redirect_url: 'https://127.0.0.1/thanks' }, 'redirect_url'],
    [{ redirect_url: 'https://localhost/thanks' }, 'redirect_url'],
    [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
  ];
  for (const [change, field] of refused) {
    const response = await api.post(forms(), { name: 'Bad', list_ids: [listId], ...change });
    expect(response.status, `${JSON.stringify(change)}: ${response.text}`).toBe(400);
    expect(response.body.message).toContain(field);
  }
});

test('GET, list, PUT and DELETE /signup-forms/{id}; another account sees nothing', async () => {
  expect((await api.get(forms(`/${formId}`))).body.id).toBe(formId);
  expect((await api.get(forms())).body.data.map((form: { id: string }) => form.id)).toContain(formId);
  expect((await other.get(forms(`/${formId}`, other))).status).toBe(404);
  expect((await other.put(forms(`/${formId}`, other), { name: 'Mine' })).status).toBe(404);
  expect((await other.delete(forms(`/${formId}`, other))).status).toBe(404);
  expect((await other.get(forms('', other))).body.data).toEqual([]);

  const spare = (await api.post(forms(), { name: 'Spare', list_ids: [listId] })).body.id;
  const renamed = await api.put(forms(`/${spare}`), { name: 'Renamed', list_ids: [secondListId] });
  expect(renamed.body).toMatchObject({ name: 'Renamed', list_ids: [secondListId], double_opt_in: true });
  expect((await api.delete(forms(`/${spare}`))).status).toBe(200);
  expect((await api.get(forms(`/${spare}`))).status).toBe(404);
  expect((await api.delete(forms(`/${spare}`))).status).toBe(404);
  expect((await publicClient().request('GET', `/f/${spare}`)).status).toBe(404);
  expect((await postJson(spare, { email: email('gone') })).status).toBe(404);
});

test('GET /f/{id} - the hosted page: the fields, a hidden honeypot, names escaped, no outside resource', async () => {
  const page = await publicClient().request('GET', `/f/${formId}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(page.text).toContain('name="email"');
  expect(page.text).toContain('name="age" type="number"');
  expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
  expect(page.text).not.toContain('<script>');
  expect(page.text).not.toMatch(/(src|href)="https?:/);
  for (const junk of ['not-a-uuid', '..%2F..%2Fetc', '01a20000-0000-7000-8000-000000000009'])
    expect([400, 404]).toContain((await publicClient().request('GET', `/f/${junk}`)).status);
});

test('POST /f/{id} as JSON - unconfirmed, a confirmation mail from the marketing domain; its link shows a button and only the POST confirms', async () => {
  const address = email('ada');
  const answer = await postJson(formId, { email: address.toUpperCase(), first_name: 'Ada', age: 36 });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body).toMatchObject({ object: 'signup', status: 'confirmation_sent' });
  expect(await membership(address)).toBe('unconfirmed');
  expect((await api.get(api.account(`/contacts/${address}`))).body).toMatchObject({
    first_name: 'Ada',
    attributes: { age: 36 },
  });
  const [mail] = await confirmationMails(address);
  expect(mail.subject).toBe(`Confirm ${HOSTILE}`);
  expect(mail.text).toContain(`Hello ${HOSTILE}, click https://`);
  expect(mail.text).toContain('{{ 7*7 }}');
  expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(mail.html).not.toContain('<script>');
  const token = linkIn(mail.text);

  // A link scanner's GETs show the button and confirm nothing; the page is the same for any token.
  const confirmUrl = `/f/confirm/${token}`;
  const shown = await publicClient().request('GET', confirmUrl);
  expect(shown.status).toBe(200);
  expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(shown.text).toContain('<form method="post"><button type="submit">Confirm my subscription</button></form>');
  expect(shown.text).toContain('name="viewport" content="width=device-width,initial-scale=1"');
  expect(shown.text).not.toMatch(/(src|href)="https?:/);
  expect(await membership(address)).toBe('unconfirmed');
  expect((await publicClient().request('GET', confirmUrl)).text).toBe(shown.text);
  expect(await membership(address)).toBe('unconfirmed');
  for (const junk of ['x', 'A'.repeat(43), `${token.slice(0, -1)}!`])
    sameAnswer(await publicClient().request('GET', `/f/confirm/${junk}`), shown);

  const confirmed = await publicClient().request('POST', confirmUrl, {
    rawBody: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.text).toContain('Subscription confirmed');
  expect(confirmed.text).not.toContain('<script>');
  expect(await membership(address)).toBe('confirmed');
  const again = await publicClient().request('POST', confirmUrl);
  expect(again.status).toBe(410);
  expect(again.text).toContain('already used');
  expect((await publicClient().request('GET', confirmUrl)).text).toBe(shown.text);
  for (const junk of ['x', 'A'.repeat(43), `${token.slice(0, -1)}!`])
    expect((await publicClient().request('POST', `/f/confirm/${junk}`)).status).toBe(404);
  expect((await api.get(forms(`/${formId}`))).body.signup_count).toBeGreaterThanOrEqual(1);
});

test('POST /f/{id} form-encoded - a thank-you page, or a 303 to redirect_url; a bad value is 400 naming its field', async () => {
  const page = await postForm(formId, { email: email('bo'), first_name: 'Bo', age: '41' });
  expect(page.status).toBe(200);
  expect(page.text).toContain('Check your inbox');
  expect((await api.get(api.account(`/contacts/${email('bo')}`))).body.attributes).toEqual({ age: 41 });

  const bad = await postForm(formId, { email: email('cy'), age: 'twelve' });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('age: ');
  expect((await postJson(formId, { email: email('cy'), age: '12' })).body.message).toMatch(/^age: /);
  expect((await postJson(formId, { email: 'not an address' })).body.message).toMatch(/^email: /);
  expect((await postJson(formId, { email: `a\u0000b@example.org` })).status).toBe(400);
  expect(await membership(email('cy'))).toBe('no contact');

  const redirecting = (
    await api.post(forms(), { name: 'Redirect', list_ids: [listId], redirect_url: 'https://example.com/thanks' })
  ).body.id;
  const response = await fetch(`${api.baseUrl}/f/${redirecting}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: email('dee') }).toString(),
    redirect: 'manual',
    dispatcher: api.agent,
  } as RequestInit);
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('https://example.com/thanks');

  // Its confirmation page lets the button's post end at the redirect (form-action), and only the post confirms.
  const link = `/f/confirm/${linkIn((await confirmationMails(email('dee')))[0].text)}`;
  const shown = await publicClient().request('GET', link);
  expect(shown.headers.get('content-security-policy')).toContain("form-action 'self' https://example.com;");
  expect(await membership(email('dee'))).toBe('unconfirmed');
  const confirmed = await fetch(`${api.baseUrl}${link}`, {
    method: 'POST',
    redirect: 'manual',
    dispatcher: api.agent,
  } as RequestInit);
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.get('location')).toBe('https://example.com/thanks');
  expect(await membership(email('dee'))).toBe('confirmed');
});

test('the answer is the same for a known and an unknown address, and for a honeypot or an oversize post (which store nothing)', async () => {
  const known = email('known');
  expect((await api.post(api.account('/contacts'), { email: known })).status).toBe(201);
  const answers = [
    await postJson(formId, { email: known }),
    await postJson(formId, { email: email('unknown') }),
    await postJson(formId, { email: email('robot'), hp_website: 'https://spam.example' }),
    await postJson(formId, { email: email('huge'), first_name: 'x'.repeat(20_000) }),
  ];
  for (const answer of answers.slice(1)) sameAnswer(answer, answers[0]);
  sameAnswer(await postForm(formId, { email: known }), await postForm(formId, { email: email('unknown2') }));
  expect(await membership(email('robot'))).toBe('no contact');
  expect(await membership(email('huge'))).toBe('no contact');
});

test('a signup never changes an unsubscribed membership, a suppression, or a name or attribute the contact holds', async () => {
  const address = email('kept');
  await api.post(api.account('/contacts'), {
    email: address,
    first_name: 'Keep',
    last_name: 'Me',
    attributes: { age: 5 },
  });
  await api.post(api.account(`/lists/${listId}/members`), { contact: address, subscription_status: 'unsubscribed' });
  await api.post(api.account(`/lists/${secondListId}/members`), { contact: address, subscription_status: 'confirmed' });
  const suppressed = await api.post(api.account('/suppressions'), {
    email: address,
    expires_at: '2099-01-01T00:00:00Z',
    reason: 'kept',
  });
  expect(suppressed.status, suppressed.text).toBeLessThan(300);
  const before = (await api.get(api.account(`/suppressions?email=${encodeURIComponent(address)}`))).body.data;

  const both = (await api.post(forms(), { name: 'Both', list_ids: [listId, secondListId], fields: ['age'] })).body.id;
  expect((await postJson(both, { email: address, first_name: 'Changed' })).status).toBe(200);
  expect(await membership(address, listId)).toBe('unsubscribed');
  expect(await membership(address, secondListId)).toBe('confirmed');
  // Anyone can post any address: what the contact already holds stays.
  expect((await api.get(api.account(`/contacts/${address}`))).body).toMatchObject({
    first_name: 'Keep',
    last_name: 'Me',
    attributes: { age: 5 },
  });
  expect((await api.get(api.account(`/suppressions?email=${encodeURIComponent(address)}`))).body.data).toEqual(before);
  // Nothing awaited confirmation: no mail.
  expect(await confirmationMails(address)).toEqual([]);
});

test('parallel signups of one address make one contact and at most one confirmation mail', async () => {
  // An account of its own: the shared server's deliveries to example.org bounce, and a few bounces
  // pause the sending domain the earlier tests' confirmation mails went from.
  const { api: fresh } = await newAccount('Signup forms (parallel)');
  const domain = `signup-parallel-${stamp}.example.com`;
  await verifiedDomain(fresh, domain);
  expect((await fresh.put(fresh.account(`/domains/${domain}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = (await fresh.post(fresh.account('/lists'), { name: 'Parallel' })).body.id;
  const form = (await fresh.post(fresh.account('/signup-forms'), { name: 'Parallel', list_ids: [list] })).body.id;
  const address = email('parallel');
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, index) => postJson(form, { email: address, first_name: `P${index}` })),
  );
  for (const answer of answers) expect(answer.status).toBe(200);
  expect((await fresh.get(fresh.account(`/contacts?email=${encodeURIComponent(address)}`))).body.data).toHaveLength(1);
  const mails = await fresh.get(fresh.account(`/messages?recipient=${encodeURIComponent(address)}&limit=100`));
  expect(mails.body.data).toHaveLength(1);
});

test('without a verified marketing domain the form says so, and the public post answers the same', async () => {
  const { api: bare } = await newAccount('Signup forms (no domain)');
  const list = (await bare.post(bare.account('/lists'), { name: 'L' })).body.id;
  const form = await bare.post(bare.account('/signup-forms'), { name: 'No sender', list_ids: [list] });
  expect(form.body.confirmation_from).toBeNull();
  sameAnswer(
    await postJson(form.body.id, { email: email('nosender') }),
    await postJson(formId, { email: email('withsender') }),
  );
  expect((await bare.get(bare.account(`/contacts/${email('nosender')}/lists`))).body.data[0].subscription_status).toBe(
    'unconfirmed',
  );
});

test('posts are limited per client address: 429 with Retry-After, and another address still signs up', async () => {
  const limited = (await api.post(forms(), { name: 'Limited', list_ids: [secondListId], double_opt_in: false })).body
    .id;
  let last: ApiResponse | null = null;
  for (let index = 0; index < 40 && last?.status !== 429; index++)
    last = await postJson(limited, { email: email(`limit${index}`) });
  expect(last!.status).toBe(429);
  expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  const elsewhere = await api
    .with(null)
    .from('127.0.0.67')
    .request('POST', `/f/${limited}`, { body: { email: email('other-address') }, checkContract: false });
  expect(elsewhere.status).toBe(200);
});
