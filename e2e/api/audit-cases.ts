import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../support/client';

/** The account every case acts on: a partner (for the sub-account rows), its all-scope key and its owner's session. */
export type Suite = {
  api: ApiClient;
  accountId: string;
  ownerId: string;
  ownerEmail: string;
  keyId: string;
  keyLabel: string;
  session: Record<string, string>;
  sender: string;
  stamp: string;
  uploadMedia: (client: ApiClient) => Promise<ApiResponse>;
  importContacts: (client: ApiClient) => Promise<ApiResponse>;
  routeDomainToLoopback: (domain: string) => Promise<void>;
};

type Prepared = any;
export type Case = {
  action: string;
  prepare?: (s: Suite) => Promise<Prepared>;
  call: (s: Suite, p: Prepared) => Promise<ApiResponse>;
  resource: (response: ApiResponse, p: Prepared, s: Suite) => string | null;
  /** The same endpoint refused (4xx) after it got past authentication. */
  refused?: (s: Suite, p: Prepared) => Promise<ApiResponse>;
  /** Called with the owner's dashboard session instead of the key. */
  asUser?: boolean;
  actor?: (s: Suite, p: Prepared) => { type: string; id: string | null; label: string | null };
  /** The account the event belongs to, when not the suite's (a sub account's changes are the child's). */
  account?: (p: Prepared, s: Suite, response: ApiResponse) => string;
};

const UNKNOWN = '01a20000-0000-7000-8000-00000000dead';
let counter = 0;
const unique = (s: Suite, prefix: string) => `${prefix}-${s.stamp}-${counter++}`;
const path = (s: Suite, suffix: string) => s.api.account(suffix);
const internal = (s: Suite, suffix: string) => `/internal/accounts/${s.accountId}${suffix}`;
const asUser = (s: Suite, method: string, url: string, body?: unknown) =>
  s.api.request(method, url, { apiKey: null, headers: s.session, body });

async function created(response: Promise<ApiResponse>): Promise<any> {
  const answer = await response;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body;
}

const post = (s: Suite, suffix: string, body?: unknown) => created(s.api.post(path(s, suffix), body ?? {}));
const key = async (s: Suite) => (await post(s, '/api-keys', { label: unique(s, 'key'), scopes: ['domains:read'] })).id;
const webhook = async (s: Suite) =>
  (await post(s, '/webhooks', { name: 'w', url: 'https://hooks.audit.example.com/h', scope: 'global' })).id;
const route = async (s: Suite) =>
  (
    await post(s, '/routes', {
      name: 'r',
      url: 'https://hooks.audit.example.com/in',
      recipient: `${unique(s, 'in')}@${s.sender}`,
    })
  ).id;
const contact = async (s: Suite, body: Record<string, unknown> = {}) =>
  (await post(s, '/contacts', { email: `${unique(s, 'c')}@example.org`, ...body })) as { id: string; email: string };
const list = async (s: Suite) => (await post(s, '/lists', { name: unique(s, 'list') })).id as string;
const template = async (s: Suite) =>
  (await post(s, '/templates', { name: unique(s, 't'), subject: 'Hi', html_content: '<p>Hi</p>' })).id;
const child = async (s: Suite) =>
  (await post(s, '/sub-accounts', { name: unique(s, 'child'), website: 'child.example.com', monthly_credit: 10 })).id;
const invitation = async (s: Suite) =>
  (await post(s, '/members', { email: `${unique(s, 'invitee')}@example.org`, role: 'Analyst' })).invitation;
const member = async (s: Suite) => {
  const invited = await invitation(s);
  const token = new URL(invited.url).pathname.split('/').at(-1);
  const accepted = await created(
    s.api.request('POST', '/internal/invitations/accept', {
      apiKey: null,
      body: { token, password: 'correct horse battery', name: 'Invitee' },
    }),
  );
  return accepted.user_id as string;
};

const suppressed = async (s: Suite) => {
  const email = `${unique(s, 'sup')}@example.org`;
  await post(s, '/suppressions', { email, expires_at: '2099-01-01T00:00:00Z' });
  return email;
};

/** A draft whose list holds one contact: it validates and can be scheduled. */
async function draft(s: Suite, recipient = `${unique(s, 'reader')}@example.org`) {
  const listId = await list(s);
  await post(s, '/contacts', { email: recipient });
  await post(s, `/lists/${listId}/members`, { contact: recipient });
  return (
    await post(s, '/campaigns', {
      name: unique(s, 'campaign'),
      from: { email: `news@${s.sender}`, name: 'News' },
      subject: 'Hi',
      html_content: '<p>Hi</p>',
      list_ids: [listId],
    })
  ).id as string;
}

async function campaignIn(s: Suite, id: string, status: string) {
  await expect
    .poll(async () => (await s.api.get(path(s, `/campaigns/${id}`))).body.status, { timeout: 20_000 })
    .toBe(status);
  return id;
}

async function scheduled(s: Suite) {
  const id = await draft(s);
  await post(s, `/campaigns/${id}/send`, { send_at: new Date(Date.now() + 86_400_000).toISOString() });
  return campaignIn(s, id, 'scheduled');
}

/** Sending, and staying so: its one recipient's MX is on loopback, where delivery is deferred. */
async function sending(s: Suite) {
  const domain = `${unique(s, 'held')}.example`;
  await s.routeDomainToLoopback(domain);
  const id = await draft(s, `reader@${domain}`);
  await post(s, `/campaigns/${id}/send`);
  return campaignIn(s, id, 'sending');
}

const id = (response: ApiResponse) => response.body.id as string;
const prepared = (_: ApiResponse, p: Prepared) => p as string;
const put = (suffix: string, body: unknown) => (s: Suite, p: Prepared) =>
  s.api.put(path(s, suffix.replace('$', p)), body);
const del = (suffix: string) => (s: Suite, p: Prepared) => s.api.delete(path(s, suffix.replace('$', p)));
const act = (suffix: string, body?: unknown) => (s: Suite, p: Prepared) =>
  s.api.post(path(s, suffix.replace('$', p)), body);
const unknownIn = (call: (s: Suite, p: Prepared) => Promise<ApiResponse>) => (s: Suite) => call(s, UNKNOWN);
const childAccount = (p: Prepared) => (typeof p === 'string' ? p : p.child);

export { UNKNOWN, act, asUser, child, childAccount, contact, created, del, draft, id, internal, invitation, key, list };
export {
  member,
  path,
  post,
  prepared,
  put,
  route,
  scheduled,
  sending,
  suppressed,
  template,
  unique,
  unknownIn,
  webhook,
};
