import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS } from '../support/sending';

/**
 * A campaign narrowed by a segment and excluding a list, sent through the delivery engine to a
 * loopback MX: exactly the expected addresses get it, as many as the segment and list counts say,
 * and delivery records engagement that an `engagement: received` segment then finds.
 */
let suite: MxSuite;
let api: ApiClient;
const stamp = Date.now().toString(36);
const sender = `segments-${stamp}.example.com`;
const rcptDomain = `seg-${stamp}.example`;
const people = ['ann', 'bob', 'cy', 'dee', 'eve'].map((name) => ({ name, email: `${name}@${rcptDomain}` }));

test.beforeAll(async () => {
  suite = await startMxSuite({ name: 'Segments campaign', sender, recipientDomain: rcptDomain });
  api = suite.api;
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
});

test.afterAll(async () => {
  await suite?.stop();
});

test('a campaign to a list, narrowed by a segment and minus a list, mails exactly that audience', async () => {
  for (const person of people)
    expect((await api.post(api.account('/contacts'), { email: person.email, first_name: person.name })).status).toBe(
      201,
    );
  const everyone = (await api.post(api.account('/lists'), { name: 'Everyone' })).body.id;
  await api.post(api.account(`/lists/${everyone}/members`), { contacts: people.map((person) => person.email) });
  const excluded = (await api.post(api.account('/lists'), { name: 'Already customers' })).body.id;
  await api.post(api.account(`/lists/${excluded}/members`), { contact: `dee@${rcptDomain}` });
  // ann, dee and eve by name (a quote in a value is only a value); bob and cy are not in it.
  const segment = await api.post(api.account('/segments'), {
    name: 'A, D, E',
    filter: {
      any: [
        { field: 'first_name', op: 'in', value: ['ann', "dee'; --"] },
        { field: 'first_name', op: 'eq', value: 'dee' },
        { field: 'email', op: 'starts_with', value: 'EVE@' },
      ],
    },
  });
  expect(segment.status, segment.text).toBe(201);
  expect(segment.body.count).toBe(3);

  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Narrowed',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hello {{ first_name }}</p>',
    list_ids: [everyone],
    segment_ids: [segment.body.id],
    exclude_list_ids: [excluded],
  });
  expect(campaign.status, campaign.text).toBe(201);
  expect((await api.post(api.account(`/campaigns/${campaign.body.id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${campaign.body.id}`))).body.status, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe('sent');
  const recipients = suite.mx.received.flatMap((mail) => mail.to).sort();
  expect(recipients).toEqual([`ann@${rcptDomain}`, `eve@${rcptDomain}`]);
  expect((await api.get(api.account(`/campaigns/${campaign.body.id}`))).body.counts.recipients).toBe(2);

  // Delivery wrote each recipient's engagement: a segment of who received a campaign finds them.
  await expect
    .poll(
      async () =>
        (
          await api.post(api.account('/segments/preview'), {
            filter: { all: [{ engagement: 'received', within_days: 1 }] },
          })
        ).body.contacts
          .map((contact: { email: string }) => contact.email)
          .sort(),
      { timeout: 10_000, intervals: BACKGROUND_POLL_INTERVALS },
    )
    .toEqual([`ann@${rcptDomain}`, `eve@${rcptDomain}`]);
});
