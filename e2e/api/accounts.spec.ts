import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;
let accountId: string;
let ownerId: string;

test.beforeAll(async () => {
  ({ api, accountId, ownerId } = await newAccount('Accounts'));
});

test('GET /v2/accounts/:id - every field of the account', async () => {
  const response = await api.get(api.account());
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    object: 'account',
    id: accountId,
    parent_account_id: null,
    created_at: expect.any(String),
    updated_at: expect.any(String),
    name: 'Accounts',
    website: null,
    about: null,
    track_opens: false,
    track_clicks: false,
    reject_bad_recipients: false,
    reject_mistyped_recipients: false,
    message_metadata_retention: 30,
    message_data_retention: 7,
    owner_id: ownerId,
  });
});

test('PUT /v2/accounts/:id - changes only the given fields and returns the updated account', async () => {
  const response = await api.put(api.account(), {
    website: 'https://acme.example',
    track_opens: true,
    message_data_retention: 0,
  });
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({
    name: 'Accounts',
    website: 'https://acme.example',
    track_opens: true,
    track_clicks: false,
    message_data_retention: 0,
  });
  expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(response.body.created_at));
  const again = await api.get(api.account());
  expect(again.body).toEqual(response.body);
  const cleared = await api.put(api.account(), { website: null, about: 'We send receipts.' });
  expect(cleared.body).toMatchObject({ website: null, about: 'We send receipts.', track_opens: true });
});

const invalid: [string, unknown, RegExp][] = [
  ['an empty name', { name: '' }, /name/],
  ['a name of 256 characters', { name: 'n'.repeat(256) }, /name/],
  ['a website that is not a URL', { website: 'not a url' }, /website/],
  ['a javascript: website', { website: 'javascript:alert(1)' }, /website/],
  ['track_opens as a string', { track_opens: 'yes' }, /track_opens/],
  ['metadata retention 0', { message_metadata_retention: 0 }, /message_metadata_retention/],
  ['metadata retention 31', { message_metadata_retention: 31 }, /message_metadata_retention/],
  ['data retention -1', { message_data_retention: -1 }, /message_data_retention/],
  ['data retention 1.5', { message_data_retention: 1.5 }, /message_data_retention/],
  ['about of 5001 characters', { about: 'a'.repeat(5001) }, /about/],
];

for (const [name, body, message] of invalid) {
  test(`PUT /v2/accounts/:id - ${name} is 400`, async () => {
    const response = await api.put(api.account(), body);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
}

test('PUT /v2/accounts/:id - internal fields cannot be written or read', async () => {
  const response = await api.put(api.account(), { status: 'suspended', tier: 'partner', monthly_credit: 5 });
  expect(response.status).toBe(200);
  expect(response.body.status).toBeUndefined();
  expect(response.body.tier).toBeUndefined();
  expect((await api.get('/v2/ping')).status).toBe(200);
});
