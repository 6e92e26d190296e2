import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client';
import { CONTACT_FIELDS, MEMBERSHIP_FIELDS, RFC3339 } from './contact-fixtures';
import { newAccount } from './shared';

/** The addresses of a lists suite's contacts. */
export const memberEmails = (stamp: string) =>
  Array.from({ length: 6 }, (_, index) => `member${index}.${stamp}@example.org`);

/** The accounts of a lists suite: its own with a contact for each address, and another one for tenancy. */
export async function listAccounts(
  emails: string[],
): Promise<{ api: ApiClient; other: ApiClient; contactIds: string[] }> {
  const { api } = await newAccount('Lists');
  const { api: other } = await newAccount('Lists (other account)');
  const contactIds: string[] = [];
  for (const email of emails) {
    const created = await api.post(api.account('/contacts'), { email, first_name: email.slice(0, 7) });
    expect(created.status).toBe(201);
    contactIds.push(created.body.id);
  }
  return { api, other, contactIds };
}

export const LIST_FIELDS = [
  'created_at',
  'description',
  'id',
  'member_counts',
  'name',
  'object',
  'public_name',
  'updated_at',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function expectList(body: any) {
  expect(Object.keys(body).sort()).toEqual(LIST_FIELDS);
  expect(body.object).toBe('contact_list');
  expect(body.id).toMatch(UUID);
  expect(typeof body.name).toBe('string');
  expect(body.description === null || typeof body.description === 'string').toBe(true);
  expect(body.public_name === null || typeof body.public_name === 'string').toBe(true);
  expect(Object.keys(body.member_counts).sort()).toEqual(['complained', 'confirmed', 'unconfirmed', 'unsubscribed']);
  for (const count of Object.values(body.member_counts)) expect(Number.isInteger(count)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

export function expectMembership(body: any, withContact = false) {
  expect(Object.keys(body).sort()).toEqual(withContact ? [...MEMBERSHIP_FIELDS, 'contact'].sort() : MEMBERSHIP_FIELDS);
  expect(body.object).toBe('list_membership');
  expect(body.list_id).toMatch(UUID);
  expect(body.contact_id).toMatch(UUID);
  expect(['unconfirmed', 'confirmed', 'unsubscribed', 'complained']).toContain(body.subscription_status);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
  if (withContact) {
    expect(Object.keys(body.contact).sort()).toEqual(CONTACT_FIELDS);
    expect(body.contact.id).toBe(body.contact_id);
  }
}

export function expectEnvelope(body: any) {
  expect(Object.keys(body).sort()).toEqual(['data', 'object', 'pagination']);
  expect(body.object).toBe('list');
  expect(typeof body.pagination.has_more).toBe('boolean');
}

export function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

/** Paths and writes of the suite's account, `api()` by default (read when called, after beforeAll has set it). */
export function listHelpers(api: () => ApiClient) {
  const lists = (client = api(), suffix = '') => client.account(`/lists${suffix}`);
  const membersOf = (listId: string, suffix = '', client = api()) => lists(client, `/${listId}/members${suffix}`);
  const memberPath = (listId: string, idOrEmail: string, client = api()) =>
    membersOf(listId, `/${encodeURIComponent(idOrEmail)}`, client);
  async function newList(name = `List ${randomUUID().slice(0, 8)}`, client = api()): Promise<string> {
    const created = await client.post(lists(client), { name });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }
  const counts = async (listId: string) => (await api().get(lists(api(), `/${listId}`))).body.member_counts;

  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api().post(api().account('/api-keys'), { label: `lists ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api().with(created.body.secret_key);
  }

  return { lists, membersOf, memberPath, newList, counts, keyWith };
}
