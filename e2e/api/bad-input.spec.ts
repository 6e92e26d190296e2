import { expect, test } from '@playwright/test';
import { v2Endpoints } from '../../lib/api/v2';
import { badInputCases } from '../support/bad-input';
import type { ApiClient } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';

/** A valid body for every endpoint that takes one; a new endpoint without an entry fails the suite. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'PUT /v2/accounts/{account_id}': { name: 'Renamed' },
  'POST /v2/accounts/{account_id}/api-keys': { label: 'bad input', scopes: ['domains:read'] },
  'PUT /v2/accounts/{account_id}/api-keys/{key_id}': { label: 'bad input 2' },
  'POST /v2/accounts/{account_id}/domains': { domain: `bad-input-${Date.now()}.example.com` },
  'PUT /v2/accounts/{account_id}/domains/{domain}': { sending_type: 'marketing' },
  'POST /v2/accounts/{account_id}/messages': { from: { email: 'x@placeholder' }, recipients: [{ email: 'r@example.org' }], subject: 's', text_content: 't', sandbox: true },
  'POST /v2/accounts/{account_id}/messages/conversation': { from: { email: 'x@placeholder' }, to: [{ email: 'r@example.org' }], subject: 's', text_content: 't', sandbox: true },
};

let api: ApiClient;
const pathValues: Record<string, string> = {};

test.beforeAll(async () => {
  const account = await newAccount('Bad input');
  api = account.api;
  pathValues.account_id = account.accountId;
  const key = await api.post(api.account('/api-keys'), { label: 'target', scopes: ['domains:read'] });
  pathValues.key_id = key.body.id;
  const domain = await verifiedDomain(api, `bad-input-target-${Date.now()}.example.com`);
  pathValues.domain = domain.domain;
  VALID_BODIES['POST /v2/accounts/{account_id}/messages'].from = { email: `sender@${domain.domain}` };
  VALID_BODIES['POST /v2/accounts/{account_id}/messages/conversation'].from = { email: `sender@${domain.domain}` };
});

const withBodies = v2Endpoints.filter((endpoint) => endpoint.body);

test('every endpoint that takes a body has a valid example here', () => {
  const missing = withBodies.map((endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`).filter((name) => !VALID_BODIES[name]);
  expect(missing).toEqual([]);
});

for (const endpoint of withBodies) {
  const name = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
  const valid = VALID_BODIES[name] ?? {};
  for (const badCase of badInputCases(endpoint.body!, valid)) {
    test(`${name} - ${badCase.name} is 400 naming ${badCase.field}`, async () => {
      const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, param: string) => pathValues[param]);
      const response = await api.request(endpoint.method.toUpperCase(), path, { body: badCase.body });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['message']);
      expect(response.body.message).toContain(badCase.field);
    });
  }
}
