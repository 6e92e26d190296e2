import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client';
import { BACKGROUND_POLL_INTERVALS, verifiedDomain } from './sending';
import { newAccount } from './shared';

/** A campaigns suite's accounts: its own with a verified marketing domain and a list of members, and another for tenancy. */
export async function campaignAccounts(): Promise<{
  api: ApiClient;
  other: ApiClient;
  sender: string;
  listId: string;
  members: string[];
}> {
  const stamp = Date.now().toString(36);
  const sender = `campaigns-${stamp}.example.com`;
  const { api } = await newAccount('Campaigns');
  const { api: other } = await newAccount('Campaigns (other account)');
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = await api.post(api.account('/lists'), { name: 'Readers' });
  const members = ['ann', 'ben', 'cat'].map((name) => `${name}-${stamp}@example.org`);
  for (const email of members)
    expect((await api.post(api.account('/contacts'), { email, first_name: email.split('-')[0] })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: members })).status).toBeLessThan(
    300,
  );
  return { api, other, sender, listId: list.body.id, members };
}

export const CAMPAIGN_FIELDS = [
  'ab_phase',
  'ab_test',
  'ab_wait_until',
  'blocks_content',
  'completed_at',
  'counts',
  'created_at',
  'exclude_list_ids',
  'exclude_segment_ids',
  'format',
  'from',
  'html_content',
  'id',
  'list_ids',
  'markdown_content',
  'name',
  'object',
  'preheader',
  'queued_at',
  'reply_to',
  'segment_ids',
  'send_at',
  'started_at',
  'status',
  'subject',
  'template_id',
  'template_version',
  'text_content',
  'text_generated',
  'tracking',
  'updated_at',
  'validation_errors',
  'variants',
  'winner_variant_id',
];

export function expectCampaign(body: any) {
  expect(Object.keys(body).sort()).toEqual(CAMPAIGN_FIELDS);
  expect(body.object).toBe('campaign');
  expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
}

export function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

export function campaignHelpers(suite: () => { api: ApiClient; sender: string; listId: string }) {
  const campaigns = (suffix = '', client = suite().api) => client.account(`/campaigns${suffix}`);

  /** A draft that passes validation. */
  async function draft(body: Record<string, unknown> = {}, client = suite().api): Promise<string> {
    const created = await client.post(campaigns('', client), {
      name: 'Weekly',
      from: { email: `news@${suite().sender}`, name: 'News' },
      subject: 'Hi {{ first_name }}',
      html_content: '<p>Hello {{ first_name }}</p>',
      list_ids: [suite().listId],
      ...body,
    });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  async function waitForStatus(id: string, status: string) {
    // The reasons are part of what is compared, so a campaign that validation sent back shows why.
    await expect
      .poll(
        async () => {
          const body = (await suite().api.get(campaigns(`/${id}`))).body;
          return body.status === status ? status : `${body.status} ${JSON.stringify(body.validation_errors)}`;
        },
        { timeout: 15_000, intervals: BACKGROUND_POLL_INTERVALS, message: `campaign ${id} never reached ${status}` },
      )
      .toBe(status);
    return (await suite().api.get(campaigns(`/${id}`))).body;
  }

  /** Sent for tomorrow: it stays `scheduled`, with no mail queued. */
  async function scheduled(body: Record<string, unknown> = {}): Promise<string> {
    const id = await draft(body);
    const sent = await suite().api.post(campaigns(`/${id}/send`), {
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(sent.status, sent.text).toBe(200);
    await waitForStatus(id, 'scheduled');
    return id;
  }

  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const { api } = suite();
    const created = await api.post(api.account('/api-keys'), { label: `campaigns ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  }

  /**
   * A list of new contacts. Tests that really send use one: the shared server's deliveries to
   * example.org bounce, and a bounce suppresses the address for every later campaign.
   */
  async function freshList(size: number): Promise<string> {
    const { api } = suite();
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const list = await api.post(api.account('/lists'), { name: `Fresh ${stamp}` });
    const emails = Array.from({ length: size }, (_, index) => `fresh${index}-${stamp}@example.org`);
    for (const email of emails) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
    expect((await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: emails })).status).toBeLessThan(
      300,
    );
    return list.body.id;
  }

  /** A verified marketing domain of its own: the shared server pauses a domain after a few of those bounces. */
  async function freshSender(): Promise<string> {
    const { api } = suite();
    const name = `fresh-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.example.com`;
    await verifiedDomain(api, name);
    expect((await api.put(api.account(`/domains/${name}`), { sending_type: 'marketing' })).status).toBe(200);
    return `news@${name}`;
  }

  /** A draft that really sends: its own list of new contacts, from its own domain. */
  async function sendableDraft(size = 3): Promise<string> {
    return draft({ list_ids: [await freshList(size)], from: { email: await freshSender() } });
  }

  return { campaigns, draft, scheduled, waitForStatus, keyWith, sendableDraft };
}
