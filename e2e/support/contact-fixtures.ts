import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client';
import { newAccount } from './shared';

/** The accounts of a contacts suite: its own, and another one for tenancy. */
export async function contactAccounts(): Promise<{ api: ApiClient; other: ApiClient; ownerId: string }> {
  const { api, ownerId } = await newAccount('Contacts');
  const { api: other } = await newAccount('Contacts (other account)');
  return { api, other, ownerId };
}

export const CONTACT_FIELDS = [
  'attributes',
  'created_at',
  'email',
  'first_name',
  'id',
  'last_name',
  'object',
  'unsubscribed',
  'unsubscribed_at',
  'updated_at',
];
export const MEMBERSHIP_FIELDS = ['contact_id', 'created_at', 'list_id', 'object', 'subscription_status', 'updated_at'];
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A Contact exactly as the contract lists it: these fields and no others, with their types. */
export function expectContact(body: any) {
  expect(Object.keys(body).sort()).toEqual(CONTACT_FIELDS);
  expect(body.object).toBe('contact');
  expect(body.id).toMatch(UUID);
  expect(typeof body.email).toBe('string');
  expect(body.email).toBe(body.email.trim().toLowerCase());
  for (const name of ['first_name', 'last_name'])
    expect(body[name] === null || typeof body[name] === 'string').toBe(true);
  expect(typeof body.attributes).toBe('object');
  expect(Array.isArray(body.attributes)).toBe(false);
  expect(typeof body.unsubscribed).toBe('boolean');
  if (body.unsubscribed) expect(body.unsubscribed_at).toMatch(RFC3339);
  else expect(body.unsubscribed_at).toBeNull();
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

export function expectEnvelope(body: any) {
  expect(Object.keys(body).sort()).toEqual(['data', 'object', 'pagination']);
  expect(body.object).toBe('list');
  expect(Array.isArray(body.data)).toBe(true);
  expect(typeof body.pagination.has_more).toBe('boolean');
}

export function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

/** The path segment of a contact: an email percent-encoded exactly once (R5). */
export const segment = (idOrEmail: string) => encodeURIComponent(idOrEmail);

/** Paths and writes of the suite's account, `api()` by default (read when called, after beforeAll has set it). */
export function contactHelpers(api: () => ApiClient) {
  const contactsPath = (client = api(), suffix = '') => client.account(`/contacts${suffix}`);
  const contactPath = (idOrEmail: string, suffix = '', client = api()) =>
    contactsPath(client, `/${segment(idOrEmail)}${suffix}`);
  const create = (body: Record<string, unknown>, client = api(), headers?: Record<string, string>) =>
    client.post(contactsPath(client), body, { headers });
  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api().post(api().account('/api-keys'), { label: `contacts ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api().with(created.body.secret_key);
  }
  return { contactsPath, contactPath, create, keyWith };
}
