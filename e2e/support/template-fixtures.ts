import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client';
import { verifiedDomain } from './sending';
import { newAccount } from './shared';

/** The accounts of a templates suite: its own, with a verified sending domain, and another one for tenancy. */
export async function templateAccounts(): Promise<{ api: ApiClient; other: ApiClient; sender: string }> {
  const sender = `templates-${Date.now().toString(36)}.example.com`;
  const { api } = await newAccount('Templates');
  const { api: other } = await newAccount('Templates (other account)');
  await verifiedDomain(api, sender);
  return { api, other, sender };
}

export const TEMPLATE_FIELDS = [
  'blocks_content',
  'created_at',
  'format',
  'html_content',
  'id',
  'kind',
  'latest_version',
  'markdown_content',
  'name',
  'object',
  'preheader',
  'revision',
  'subject',
  'text_content',
  'text_generated',
  'updated_at',
];
const VERSION_FIELDS = [
  'blocks_content',
  'created_at',
  'format',
  'html_content',
  'markdown_content',
  'object',
  'preheader',
  'subject',
  'template_id',
  'text_content',
  'version',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const WELCOME = {
  name: 'Welcome',
  subject: 'Hi {{ first_name }}',
  html_content: '<p>Hello {{ first_name }}, order {{ order.id }}</p>',
  text_content: 'Hello {{ first_name }}',
};

export function expectTemplate(body: any) {
  expect(Object.keys(body).sort()).toEqual(TEMPLATE_FIELDS);
  expect(body.object).toBe('template');
  expect(body.id).toMatch(UUID);
  expect(['transactional', 'campaign']).toContain(body.kind);
  expect(body.latest_version === null || Number.isInteger(body.latest_version)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

export function expectVersion(body: any) {
  expect(Object.keys(body).sort()).toEqual(VERSION_FIELDS);
  expect(body.object).toBe('template_version');
  expect(Number.isInteger(body.version)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
}

export function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

/**
 * Paths, writes and sends of the suite's account: `suite()` is read when a helper is called, after
 * beforeAll has set it, and its `api` is the default client.
 */
export function templateHelpers(suite: () => { api: ApiClient; sender: string }) {
  const templates = (client = suite().api, suffix = '') => client.account(`/templates${suffix}`);

  async function newTemplate(body: Record<string, unknown> = {}, client = suite().api): Promise<string> {
    const created = await client.post(templates(client), { ...WELCOME, ...body });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  async function published(body: Record<string, unknown> = {}, client = suite().api): Promise<string> {
    const id = await newTemplate(body, client);
    expect((await client.post(templates(client, `/${id}/publish`))).status).toBe(201);
    return id;
  }

  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const { api } = suite();
    const created = await api.post(api.account('/api-keys'), { label: `templates ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  }

  const send = (body: Record<string, unknown>, client = suite().api) =>
    client.post(client.account('/messages'), {
      from: { email: `news@${suite().sender}` },
      recipients: [{ email: 'r@example.org' }],
      sandbox: true,
      ...body,
    });

  async function sentParts(id: string) {
    const { api } = suite();
    const message = await api.get(api.account(`/messages/${encodeURIComponent(id)}`));
    expect(message.status).toBe(200);
    return {
      subject: /^Subject: (.*)$/m.exec(message.body.content)?.[1].trim(),
      parts: message.body.content_parsed.parts,
    };
  }

  return { templates, newTemplate, published, keyWith, send, sentParts };
}
