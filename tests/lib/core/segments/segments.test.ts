import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { CampaignTally } from '@/lib/core/campaigns/campaign-counters';
import { createAttributeDefinition } from '@/lib/core/contact-attributes/create-attribute-definition';
import { createContact } from '@/lib/core/contacts/create-contact';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { createSegment } from '@/lib/core/segments/create-segment';
import { deleteSegment } from '@/lib/core/segments/delete-segment';
import { getSegment } from '@/lib/core/segments/get-segment';
import { listSegmentContacts } from '@/lib/core/segments/list-segment-contacts';
import { previewSegment } from '@/lib/core/segments/preview-segment';
import { updateSegment } from '@/lib/core/segments/update-segment';
import { contactEngagement, contacts } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The filter compiler and the segment verbs on an in-memory PGlite: each op and type, limits, hostile values. */
let services: TestServices;
let principal: Principal;
let accountId: string;
const ids: Record<string, string> = {};
let goldList: string;

const ctx = (who: Principal = principal) => as(services, who);
const DAY = 86_400_000;

/** The emails (local parts) a filter matches, sorted. */
async function matching(filter: unknown): Promise<string[]> {
  const preview = await previewSegment(ctx(), { filter });
  const page = preview.contacts.map((contact) => contact.email.split('@')[0]).sort();
  expect(preview.count).toBe(page.length);
  return page;
}
const leaf = (field: string, op: string, value?: unknown) => ({ all: [{ field, op, value }] });

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  for (const [key, type] of [
    ['plan', 'string'],
    ['age', 'number'],
    ['vip', 'boolean'],
    ['birthday', 'date'],
    ['seen_at', 'datetime'],
  ] as const) {
    await createAttributeDefinition(ctx(), { key, type, label: key });
  }
  const people = [
    { email: 'ada@x.org', first_name: 'Ada', attributes: { plan: 'gold', age: 36, vip: true, birthday: '1990-12-10' } },
    { email: 'bob@x.org', first_name: 'Bob', attributes: { plan: 'silver', age: 9, seen_at: '2026-01-05T10:00:00Z' } },
    { email: 'cy@x.org', last_name: "O'Hara", attributes: { plan: '50%_off\\', age: 1e20, vip: false } },
    { email: 'dee@x.org', attributes: { plan: "x'); drop table contacts; --", age: -2.5 } },
    { email: 'eve@x.org', attributes: {} },
  ];
  for (const person of people) ids[person.email.split('@')[0]] = (await createContact(ctx(), person)).id;
  goldList = (await createList(ctx(), { name: 'Gold' })).id;
  await addListMembers(ctx(), { list_id: goldList, contacts: [ids.ada, ids.bob] });
  await addListMembers(ctx(), { list_id: goldList, contact: ids.cy, subscription_status: 'unsubscribed' });
}, 60_000);

afterAll(() => services?.close());

describe('segment filter: each op by type', () => {
  it.each([
    ['string eq is exact', leaf('attributes.plan', 'eq', 'gold'), ['ada']],
    [
      'string neq includes contacts without a value',
      leaf('attributes.plan', 'neq', 'gold'),
      ['bob', 'cy', 'dee', 'eve'],
    ],
    ['string in', leaf('attributes.plan', 'in', ['gold', 'silver']), ['ada', 'bob']],
    ['string not_in includes no value', leaf('attributes.plan', 'not_in', ['gold']), ['bob', 'cy', 'dee', 'eve']],
    ['string contains, case-insensitive', leaf('attributes.plan', 'contains', 'OL'), ['ada']],
    ['string starts_with', leaf('attributes.plan', 'starts_with', 'sil'), ['bob']],
    ['string ends_with', leaf('attributes.plan', 'ends_with', 'ver'), ['bob']],
    ['number gt compares numbers, not text (9 < 36)', leaf('attributes.age', 'gt', 10), ['ada', 'cy']],
    ['number lte with a fraction', leaf('attributes.age', 'lte', -2.5), ['dee']],
    ['number eq equals 36.0', leaf('attributes.age', 'eq', 36.0), ['ada']],
    ['number in', leaf('attributes.age', 'in', [9, 36]), ['ada', 'bob']],
    ['huge number', leaf('attributes.age', 'gte', 1e20), ['cy']],
    ['boolean eq', leaf('attributes.vip', 'eq', true), ['ada']],
    ['boolean neq includes no value', leaf('attributes.vip', 'neq', true), ['bob', 'cy', 'dee', 'eve']],
    ['date lt', leaf('attributes.birthday', 'lt', '2000-01-01'), ['ada']],
    ['datetime gt across offsets', leaf('attributes.seen_at', 'gt', '2026-01-05T11:59:00+02:00'), ['bob']],
    ['exists', leaf('attributes.vip', 'exists'), ['ada', 'cy']],
    ['not_exists', leaf('attributes.plan', 'not_exists'), ['eve']],
    ['email eq is normalised', leaf('email', 'eq', '  ADA@x.org '), ['ada']],
    ['first_name exists means not empty', leaf('first_name', 'exists'), ['ada', 'bob']],
    ['last_name with a quote', leaf('last_name', 'eq', "O'Hara"), ['cy']],
    ['unsubscribed eq', leaf('unsubscribed', 'eq', false), ['ada', 'bob', 'cy', 'dee', 'eve']],
    [
      'created_at gte a past time',
      leaf('created_at', 'gte', '2000-01-01T00:00:00Z'),
      ['ada', 'bob', 'cy', 'dee', 'eve'],
    ],
  ])('%s', async (_name, filter, expected) => {
    expect(await matching(filter)).toEqual(expected);
  });

  it('groups: all and any nest', async () => {
    const filter = {
      any: [
        { all: [leaf('attributes.plan', 'eq', 'gold'), leaf('attributes.vip', 'eq', true)] },
        { field: 'attributes.age', op: 'lt', value: 0 },
      ],
    };
    expect(await matching(filter)).toEqual(['ada', 'dee']);
    expect(await matching({ all: [] })).toEqual(['ada', 'bob', 'cy', 'dee', 'eve']);
    expect(await matching({ any: [] })).toEqual([]);
  });

  it('list membership, confirmed by default or of a given status', async () => {
    expect(await matching({ all: [{ list: goldList }] })).toEqual(['ada', 'bob']);
    expect(await matching({ all: [{ list: goldList, status: 'unsubscribed' }] })).toEqual(['cy']);
  });

  it('engagement reads contact_engagement as campaign events write it', async () => {
    const now = new Date();
    const tally = new CampaignTally();
    const message = (contactId: string) => ({ campaignId: ids.ada, accountId, contactId });
    tally.addTransition(message(ids.ada), 'queued', 'delivered', new Date(now.getTime() - 40 * DAY));
    tally.addTransition(message(ids.bob), 'queued', 'delivered', now);
    tally.addEngagement(message(ids.bob), { kind: 'open', at: now, isFirst: true });
    tally.addEngagement(message(ids.cy), { kind: 'click', at: new Date(now.getTime() - 2 * DAY), isFirst: true });
    await services.db.transaction((tx) => tally.flush(tx));
    // An older event never moves a time backwards.
    const late = new CampaignTally();
    late.addEngagement(message(ids.bob), { kind: 'open', at: new Date(now.getTime() - 100 * DAY), isFirst: false });
    await late.flush(services.db);
    const [bob] = await services.db
      .select()
      .from(contactEngagement)
      .where(sql`${contactEngagement.contactId} = ${ids.bob}`);
    expect(bob?.lastOpenedAt?.getTime()).toBe(now.getTime());

    expect(await matching({ all: [{ engagement: 'received', within_days: 30 }] })).toEqual(['bob']);
    expect(await matching({ all: [{ engagement: 'received', within_days: 60 }] })).toEqual(['ada', 'bob']);
    expect(await matching({ all: [{ engagement: 'opened', within_days: 1 }] })).toEqual(['bob']);
    expect(await matching({ all: [{ engagement: 'clicked', within_days: 1 }] })).toEqual([]);
    expect(await matching({ all: [{ engagement: 'clicked', within_days: 3 }] })).toEqual(['cy']);
    expect(await matching({ all: [{ engagement: 'not_opened', within_days: 30 }] })).toEqual([
      'ada',
      'cy',
      'dee',
      'eve',
    ]);
    expect(await matching({ all: [{ engagement: 'not_clicked', within_days: 30 }] })).toEqual([
      'ada',
      'bob',
      'dee',
      'eve',
    ]);
  });
});

describe('segment filter: hostile values stay values', () => {
  it.each([
    ['% and _ are literal in contains', leaf('attributes.plan', 'contains', '%_'), ['cy']],
    ['a backslash is literal', leaf('attributes.plan', 'ends_with', '\\'), ['cy']],
    ['% alone matches nothing literal', leaf('attributes.plan', 'eq', '%'), []],
    ['SQL in a value is text', leaf('attributes.plan', 'eq', "x'); drop table contacts; --"), ['dee']],
    ['SQL in contains', leaf('attributes.plan', 'contains', "'); drop"), ['dee']],
    ['a quote in a name', leaf('last_name', 'starts_with', "o'"), ['cy']],
  ])('%s', async (_name, filter, expected) => {
    expect(await matching(filter)).toEqual(expected);
    const [row] = await services.db.select({ n: sql<number>`count(*)::int` }).from(contacts);
    expect(row?.n).toBeGreaterThanOrEqual(5);
  });
});

describe('segment filter: refusals name the leaf', () => {
  const deep = (levels: number): unknown => (levels === 1 ? { all: [] } : { all: [deep(levels - 1)] });
  it.each([
    ['a number as text', leaf('attributes.age', 'gt', '12'), 'filter.all.0.value: must be a number'],
    ['a boolean as text', leaf('attributes.vip', 'eq', 'true'), 'filter.all.0.value: must be true or false'],
    ['a malformed date', leaf('attributes.birthday', 'lt', '2024-1-5'), 'filter.all.0.value: must be a date'],
    ['contains on a number', leaf('attributes.age', 'contains', 1), 'filter.all.0.op: contains does not apply'],
    ['an undefined attribute', leaf('attributes.nope', 'eq', 'x'), 'filter.all.0.field: attribute `nope` is not'],
    ['an unknown field', leaf('phone', 'eq', 'x'), 'filter.all.0.field: must be one of'],
    ['an unknown op', leaf('email', 'like', 'x'), 'filter.all.0.op: must be one of'],
    ['a value with exists', leaf('email', 'exists', 'x'), 'filter.all.0.value: must be left out'],
    ['no value', leaf('email', 'eq'), 'filter.all.0.value: is required'],
    ['in without an array', leaf('email', 'in', 'a@x.org'), 'filter.all.0.value: must be an array'],
    ['in with a wrong item', leaf('attributes.age', 'in', [1, 'two']), 'filter.all.0.value.1: must be a number'],
    ['an oversize string', leaf('email', 'eq', 'x'.repeat(1001)), 'filter.all.0.value: must be a string of at most'],
    ['six levels', deep(6), 'groups nest at most 5 levels'],
    [
      '51 conditions',
      { any: Array.from({ length: 51 }, () => leaf('email', 'exists').all[0]) },
      'at most 50 conditions',
    ],
    ['days out of range', { all: [{ engagement: 'opened', within_days: 366 }] }, 'filter.all.0.within_days'],
    ['an unknown engagement', { all: [{ engagement: 'bounced', within_days: 3 }] }, 'filter.all.0.engagement'],
    ['a list of nobody', { all: [{ list: '00000000-0000-4000-8000-000000000009' }] }, 'filter.all.0.list: list'],
    ['a root that is not a group', { field: 'email', op: 'exists' }, 'filter: must be a group'],
    ['an unknown key in a leaf', { all: [{ field: 'email', op: 'exists', x: 1 }] }, 'unknown field(s) x'],
  ])('%s', async (_name, filter, message) => {
    await expect(previewSegment(ctx(), { filter })).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringContaining(message),
    });
  });

  it('five levels are accepted', async () => {
    expect(await matching(deep(5))).toEqual(['ada', 'bob', 'cy', 'dee', 'eve']);
  });

  it("another account's list is refused as unknown", async () => {
    const other = await newAccount(services);
    const theirs = await createList(as(services, other.principal), { name: 'Theirs' });
    await expect(previewSegment(ctx(), { filter: { all: [{ list: theirs.id }] } })).rejects.toMatchObject({
      kind: 'invalid_input',
    });
    const mine = await createSegment(ctx(), { name: 'Mine', filter: leaf('email', 'exists') });
    await expect(getSegment(as(services, other.principal), { segment_id: mine.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});

describe('segment verbs', () => {
  it('create, get with count, update, list contacts, delete', async () => {
    const created = await createSegment(ctx(), { name: ' Gold plan ', filter: leaf('attributes.plan', 'eq', 'gold') });
    expect(created).toMatchObject({ object: 'segment', name: 'Gold plan', count: 1 });
    const updated = await updateSegment(ctx(), {
      segment_id: created.id,
      filter: leaf('attributes.plan', 'in', ['gold', 'silver']),
    });
    expect(updated).toMatchObject({ name: 'Gold plan', count: 2 });
    const page = await listSegmentContacts(ctx(), { segment_id: created.id, limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.hasMore).toBe(true);
    expect((await getSegment(ctx(), { segment_id: created.id })).count).toBe(2);
    await deleteSegment(ctx(), { segment_id: created.id });
    await expect(getSegment(ctx(), { segment_id: created.id })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
