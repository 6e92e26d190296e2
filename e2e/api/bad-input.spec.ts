import { expect, test } from '@playwright/test';
import { v1Endpoints } from '../../lib/api/v1';
import { v2Endpoints } from '../../lib/api/v2';
import type { Endpoint } from '../../lib/api/endpoint';
import { badInputCases, unstorableInputCases, unstorableQueryCases } from '../support/bad-input';
import { runCli } from '../support/cli';
import type { ApiClient, ApiResponse } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/** The account's verified sending domain, named up front because the cases are built from the bodies below. */
const SENDER_DOMAIN = `bad-input-target-${Date.now()}.example.com`;

/** A valid body for every endpoint that takes one; a new endpoint without an entry fails the suite. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'PUT /v2/accounts/{account_id}': { name: 'Renamed' },
  'POST /v2/accounts/{account_id}/api-keys': { label: 'bad input', scopes: ['domains:read'] },
  'PUT /v2/accounts/{account_id}/api-keys/{key_id}': { label: 'bad input 2' },
  'POST /v2/accounts/{account_id}/sub-accounts': {
    name: 'bad input',
    website: 'bad-input.example.com',
    monthly_credit: 10,
  },
  'PUT /v2/accounts/{account_id}/sub-accounts/{sub_account_id}': { name: 'bad input 2' },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/suspend': { reason: 'bad input' },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys': {
    label: 'bad input',
    scopes: ['domains:read'],
  },
  'PUT /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys/{key_id}': { label: 'bad input 2' },
  'POST /v2/accounts/{account_id}/domains': { domain: `bad-input-${Date.now()}.example.com` },
  'PUT /v2/accounts/{account_id}/domains/{domain}': { sending_type: 'marketing' },
  'POST /v2/accounts/{account_id}/messages': {
    from: { email: `sender@${SENDER_DOMAIN}`, name: 'Sender' },
    recipients: [{ email: 'r@example.org', name: 'R', substitutions: { first_name: 'Ada', order: { id: 'A-1' } } }],
    subject: 's',
    text_content: 't',
    headers: { 'X-Campaign': 'spring' },
    sandbox: true,
  },
  'POST /v2/accounts/{account_id}/messages/conversation': {
    from: { email: `sender@${SENDER_DOMAIN}` },
    to: [{ email: 'r@example.org' }],
    subject: 's',
    text_content: 't',
    sandbox: true,
  },
  'POST /v2/accounts/{account_id}/webhooks': {
    name: 'bad input',
    url: 'https://hooks.bad-input.example.com/h',
    scope: 'global',
    on_delivered: true,
  },
  'PUT /v2/accounts/{account_id}/webhooks/{webhook_id}': { name: 'bad input 2', on_opened: true },
  'POST /v2/accounts/{account_id}/webhooks/{webhook_id}/trigger': { events: ['message.delivered'] },
  'POST /v2/accounts/{account_id}/routes': {
    name: 'bad input',
    url: 'https://hooks.bad-input.example.com/in',
    recipient: `support-*@${SENDER_DOMAIN}`,
    attachments: false,
    headers: true,
    group_by_message_id: false,
    strip_replies: true,
    enabled: false,
  },
  'PUT /v2/accounts/{account_id}/routes/{route_id}': { name: 'bad input 2', enabled: false },
  // The CLI's body: the trigger takes no fields.
  'POST /v2/accounts/{account_id}/routes/{route_id}/trigger': {},
  'POST /v2/accounts/{account_id}/members': {
    email: `bad-input-${Date.now()}@example.org`,
    name: 'Bad Input',
    role: 'Analyst',
  },
  'PUT /v2/accounts/{account_id}/members/{user_id}': { role: 'Developer' },
  'POST /v2/accounts/{account_id}/smtp-credentials': {
    name: 'bad input',
    scope: 'scoped',
    domains: [SENDER_DOMAIN],
    sandbox: true,
  },
  'POST /v2/accounts/{account_id}/suppressions': {
    email: 'r@example.org',
    expires_at: '2099-01-01T00:00:00Z',
    domain: SENDER_DOMAIN,
    reason: 'bad input',
  },
  'POST /v2/accounts/{account_id}/contacts': {
    email: `bad-input-${Date.now()}@example.org`,
    first_name: 'Bad',
    last_name: 'Input',
    attributes: {},
    unsubscribed: false,
  },
  'POST /v2/accounts/{account_id}/contacts/export': {
    filter: { all: [{ field: 'email', op: 'contains', value: '@' }] },
  },
  'PUT /v2/accounts/{account_id}/contacts/{id_or_email}': {
    first_name: 'Renamed',
    last_name: 'Contact',
    unsubscribed: false,
  },
  'POST /v2/accounts/{account_id}/lists': { name: 'bad input', description: 'a list' },
  'PUT /v2/accounts/{account_id}/lists/{list_id}': { name: 'bad input 2', description: 'renamed' },
  'POST /v2/accounts/{account_id}/lists/{list_id}/members': {
    contact: 'bad-input-member@example.org',
    subscription_status: 'confirmed',
  },
  'POST /v2/accounts/{account_id}/lists/{list_id}/members/paste': {
    lines: ['bad-input-member@example.org'],
    create_missing: false,
    subscription_status: 'confirmed',
  },
  'PUT /v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}': { subscription_status: 'unconfirmed' },
  'POST /v2/accounts/{account_id}/segments': {
    name: 'bad input',
    filter: { all: [{ field: 'email', op: 'ends_with', value: '@example.org' }] },
  },
  'PUT /v2/accounts/{account_id}/segments/{segment_id}': {
    name: 'bad input 2',
    filter: { any: [{ field: 'first_name', op: 'exists' }] },
  },
  'POST /v2/accounts/{account_id}/segments/preview': {
    filter: { all: [{ field: 'email', op: 'contains', value: 'x' }] },
  },
  'POST /v2/accounts/{account_id}/templates': {
    name: 'bad input',
    kind: 'campaign',
    subject: 'Hi {{ first_name }}',
    html_content: '<p>{{ first_name }}</p>',
    text_content: 'Hi',
  },
  'PUT /v2/accounts/{account_id}/templates/{template_id}': {
    name: 'bad input 2',
    kind: 'transactional',
    subject: 's',
    html_content: '<p>h</p>',
    text_content: 't',
  },
  'POST /v2/accounts/{account_id}/campaigns': {
    name: 'bad input',
    from: { email: `news@${SENDER_DOMAIN}`, name: 'News' },
    reply_to: { email: 'reply@example.org', name: 'Reply' },
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hi</p>',
    text_content: 'Hi',
    list_ids: [],
    tracking: { open: true, click: false },
    variants: [
      { id: 'a', name: 'Short', subject: 'Hi', from_name: 'Ann' },
      { subject: 'Hello', format: 'markdown', markdown_content: '# Hello' },
    ],
    ab_test: { test_percent: 20, metric: 'opens', wait_minutes: 60 },
  },
  'PUT /v2/accounts/{account_id}/campaigns/{campaign_id}': {
    name: 'bad input 2',
    subject: 'Hello',
    text_content: 'Hello',
    tracking: { open: false },
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/send': { send_at: '2099-01-01T00:00:00Z' },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/test': { emails: ['test@example.org'] },
  'POST /v2/accounts/{account_id}/signup-forms': {
    name: 'bad input',
    list_ids: ['01a20000-0000-7000-8000-000000000002'],
    double_opt_in: true,
    fields: [],
    confirmation_subject: 'Confirm',
    confirmation_text: 'Please confirm: {{ confirm_url }}',
    redirect_url: 'https://example.com/thanks',
  },
  'PUT /v2/accounts/{account_id}/signup-forms/{form_id}': { name: 'bad input 2', double_opt_in: false },
  'POST /v1/email/send': {
    from: { email: `sender@${SENDER_DOMAIN}`, name: 'Sender' },
    recipients: [{ email: 'r@example.org', name: 'R' }],
    content: { subject: 's', text_body: 't', headers: { 'AhaSend-Sandbox': 'true' } },
  },
};

let api: ApiClient;
let v1: ApiClient;
const v1Headers: Record<string, string> = {};
const pathValues: Record<string, string> = {};

test.beforeAll(async () => {
  const account = await newAccount('Bad input');
  api = account.api;
  pathValues.account_id = account.accountId;
  const key = await api.post(api.account('/api-keys'), { label: 'target', scopes: ['domains:read'] });
  pathValues.key_id = key.body.id;
  pathValues.domain = (await verifiedDomain(api, SENDER_DOMAIN)).domain;
  pathValues.message_id = '01a20000-0000-7000-8000-000000000000';
  // Bodies are checked before the account's tier and the sub account are looked up.
  pathValues.sub_account_id = '01a20000-0000-7000-8000-000000000001';
  pathValues.webhook_id = (
    await api.post(api.account('/webhooks'), {
      name: 'target',
      url: 'https://hooks.bad-input.example.com/target',
      scope: 'global',
    })
  ).body.id;
  pathValues.route_id = (
    await api.post(api.account('/routes'), {
      name: 'target',
      url: 'https://hooks.bad-input.example.com/in',
      recipient: `target@${SENDER_DOMAIN}`,
      enabled: false,
    })
  ).body.id;
  pathValues.user_id = (
    await api.post(api.account('/members'), { email: `bad-input-member-${Date.now()}@example.org`, role: 'Analyst' })
  ).body.user_id;
  pathValues.id_or_email = (
    await api.post(api.account('/contacts'), { email: 'bad-input-member@example.org' })
  ).body.id;
  pathValues.list_id = (await api.post(api.account('/lists'), { name: 'target' })).body.id;
  await api.post(api.account(`/lists/${pathValues.list_id}/members`), { contact: pathValues.id_or_email });
  pathValues.template_id = (await api.post(api.account('/templates'), { name: 'target' })).body.id;
  pathValues.form_id = (
    await api.post(api.account('/signup-forms'), { name: 'target', list_ids: [pathValues.list_id] })
  ).body.id;
  pathValues.segment_id = (await api.post(api.account('/segments'), { name: 'target', filter: { all: [] } })).body.id;
  pathValues.version = '1';
  pathValues.campaign_id = (await api.post(api.account('/campaigns'), { name: 'target' })).body.id;
  pathValues.variant_id = 'a';
  const v1Key = await runCli(
    ['accounts', 'v1-key', account.accountId, '--label', 'bad input', '--json'],
    sharedServer().cliEnv,
  );
  expect(v1Key.code).toBe(0);
  v1 = api.with(null);
  v1Headers['X-Api-Key'] = JSON.parse(v1Key.stdout).key;
});

const nameOf = (endpoint: Endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`;
const isV1 = (endpoint: Endpoint) => endpoint.path.startsWith('/v1/');
const pathOf = (endpoint: Endpoint, values = pathValues) =>
  endpoint.path.replace(/\{([^}]+)\}/g, (_, param: string) => values[param]);

/** Many requests in a row from one account: a 429 here is the rate limit, not the case under test. */
async function send(endpoint: Endpoint, path: string, body?: unknown): Promise<ApiResponse> {
  for (;;) {
    const response = isV1(endpoint)
      ? await v1.request(endpoint.method.toUpperCase(), path, { body, headers: v1Headers })
      : await api.request(endpoint.method.toUpperCase(), path, { body });
    if (response.status !== 429) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** The error text in the endpoint's envelope: `{"message"}` on v2, `{"status"}` on v1, nothing else. */
function expectError(endpoint: Endpoint, response: ApiResponse, status: number): string {
  expect(response.status).toBe(status);
  const key = isV1(endpoint) ? 'status' : 'message';
  expect(Object.keys(response.body)).toEqual([key]);
  return response.body[key];
}

const withBodies = [...v2Endpoints, ...v1Endpoints].filter((endpoint) => endpoint.body);

test('every endpoint that takes a body has a valid example here', () => {
  const missing = withBodies.map(nameOf).filter((name) => !VALID_BODIES[name]);
  expect(missing).toEqual([]);
});

for (const endpoint of withBodies) {
  const name = nameOf(endpoint);
  const valid = VALID_BODIES[name] ?? {};
  if (!isV1(endpoint)) {
    for (const badCase of badInputCases(endpoint.body!, valid)) {
      test(`${name} - ${badCase.name} is 400 naming ${badCase.field}`, async () => {
        const message = expectError(endpoint, await send(endpoint, pathOf(endpoint), badCase.body), 400);
        expect(message).toContain(badCase.field);
      });
    }
  }
  for (const badCase of unstorableInputCases(endpoint.body!, valid)) {
    test(`${name} - ${badCase.name} is 400 naming ${badCase.field}`, async () => {
      const message = expectError(endpoint, await send(endpoint, pathOf(endpoint), badCase.body), 400);
      expect(message).toContain(badCase.field);
      expect(message).toMatch(badCase.problem);
    });
  }
}

for (const endpoint of v2Endpoints.filter((candidate) => candidate.query)) {
  for (const badCase of unstorableQueryCases(endpoint.query!)) {
    test(`${nameOf(endpoint)} - ${badCase.name} is 400 naming it`, async () => {
      const message = expectError(endpoint, await send(endpoint, `${pathOf(endpoint)}?${badCase.query}`), 400);
      expect(message).toBe(
        `${badCase.field}: ${badCase.field.includes('\\u0000') ? 'the name contains' : 'contains'} a NUL character`,
      );
    });
  }
}

for (const endpoint of v2Endpoints.filter((candidate) => /\{(?!account_id)[^}]+\}/.test(candidate.path))) {
  for (const param of [...endpoint.path.matchAll(/\{([^}]+)\}/g)]
    .map((match) => match[1])
    .filter((param) => param !== 'account_id')) {
    test(`${nameOf(endpoint)} - a NUL character in the path parameter ${param} is 400 naming it`, async () => {
      const path = pathOf(endpoint, { ...pathValues, [param]: 'a%00b' });
      const body =
        endpoint.method === 'post' || endpoint.method === 'put' ? (VALID_BODIES[nameOf(endpoint)] ?? {}) : undefined;
      const message = expectError(endpoint, await send(endpoint, path, body), 400);
      expect(message).toBe(`${param}: contains a NUL character`);
    });
  }
}
