import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { createAttributeDefinition } from '@/lib/core/contact-attributes/create-attribute-definition';
import { deleteAttributeDefinition } from '@/lib/core/contact-attributes/delete-attribute-definition';
import { listAttributeDefinitions } from '@/lib/core/contact-attributes/list-attribute-definitions';
import { updateAttributeDefinition } from '@/lib/core/contact-attributes/update-attribute-definition';
import { createContact } from '@/lib/core/contacts/create-contact';
import { deleteContact } from '@/lib/core/contacts/delete-contact';
import { getContact } from '@/lib/core/contacts/get-contact';
import { listContacts } from '@/lib/core/contacts/list-contacts';
import { listSubscriptionEvents } from '@/lib/core/contacts/list-subscription-events';
import { resubscribeContact } from '@/lib/core/contacts/resubscribe-contact';
import { unsubscribeContact } from '@/lib/core/contacts/unsubscribe-contact';
import { updateContact } from '@/lib/core/contacts/update-contact';
import { contacts, contactSubscriptionEvents, suppressions } from '@/lib/db/schema';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The contact verbs and attribute definitions on an in-memory PGlite. */
let services: TestServices;
let principal: Principal;
let accountId: string;

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
    await createAttributeDefinition(as(services, principal), { key, type, label: key });
  }
}, 60_000);

afterAll(() => services?.close());

const ctx = (who: Principal = principal) => as(services, who);

describe('contacts', () => {
  it('creates with the address trimmed and lowercased; the same address again is 409', async () => {
    const created = await createContact(ctx(), {
      email: '  Ada@Example.ORG ',
      first_name: ' Ada ',
      attributes: { plan: 'gold', age: 36 },
    });
    expect(created).toMatchObject({
      object: 'contact',
      email: 'ada@example.org',
      first_name: 'Ada',
      last_name: null,
      attributes: { plan: 'gold', age: 36 },
      unsubscribed: false,
      unsubscribed_at: null,
    });
    await expect(createContact(ctx(), { email: 'ADA@example.org' })).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('refuses invalid addresses, unknown keys and non-canonical values, naming the key (R4)', async () => {
    await expect(createContact(ctx(), { email: 'not an address' })).rejects.toMatchObject({
      kind: 'invalid_input',
      message: /email: invalid email address/,
    });
    await expect(createContact(ctx(), { email: 'r4@example.org', attributes: { age: '12' } })).rejects.toMatchObject({
      kind: 'invalid_input',
      message: 'attributes.age: attribute `age` must be a number, e.g. 42',
    });
    await expect(
      createContact(ctx(), { email: 'r4@example.org', attributes: JSON.parse('{"__proto__": {"plan": "x"}}') }),
    ).rejects.toMatchObject({ message: /attributes.__proto__: attribute `__proto__` is not defined/ });
    await expect(createContact(ctx(), { email: 'r4@example.org', attributes: [] })).rejects.toMatchObject({
      kind: 'invalid_input',
      message: /attributes: must be an object/,
    });
  });

  it('finds a contact by id or by email, case-insensitively; neither is 404', async () => {
    const created = await createContact(ctx(), { email: 'a+b@example.org' });
    expect((await getContact(ctx(), { id_or_email: created.id })).email).toBe('a+b@example.org');
    expect((await getContact(ctx(), { id_or_email: 'A+B@Example.org' })).id).toBe(created.id);
    await expect(getContact(ctx(), { id_or_email: 'import' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(getContact(ctx(), { id_or_email: 'a%2Bb%40example.org' })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('updates partially, merging attributes; null removes a key; reads return nested JSON stored earlier (R4)', async () => {
    const created = await createContact(ctx(), {
      email: 'merge@example.org',
      first_name: 'M',
      last_name: 'E',
      attributes: { plan: 'a', vip: true },
    });
    // A value stored under another definition (or by an earlier version) stays readable as it is.
    await services.db
      .update(contacts)
      .set({ attributes: { plan: 'a', vip: true, legacy: { deep: [1, { x: null }] } } })
      .where(eq(contacts.id, created.id));
    const updated = await updateContact(ctx(), {
      id_or_email: created.id,
      last_name: null,
      attributes: { vip: null, age: 7 },
    });
    expect(updated).toMatchObject({
      first_name: 'M',
      last_name: null,
      attributes: { plan: 'a', age: 7, legacy: { deep: [1, { x: null }] } },
    });
    expect(updated.attributes).not.toHaveProperty('vip');
    await createContact(ctx(), { email: 'taken@example.org' });
    await expect(updateContact(ctx(), { id_or_email: created.id, email: 'Taken@example.org' })).rejects.toMatchObject({
      kind: 'conflict',
    });
  });

  it('R3: unsubscribe and resubscribe are reversible and keep their history; repeating changes nothing', async () => {
    const created = await createContact(ctx(), { email: 'history@example.org' });
    const out = await unsubscribeContact(ctx(), { id_or_email: 'history@example.org' });
    expect(out).toMatchObject({ unsubscribed: true, unsubscribed_at: services.now().toISOString() });
    await unsubscribeContact(ctx(), { id_or_email: created.id });
    const back = await resubscribeContact(ctx(), { id_or_email: created.id });
    expect(back).toMatchObject({ unsubscribed: false, unsubscribed_at: null });
    await updateContact(ctx(keyPrincipal(accountId, ['contacts:write'])), {
      id_or_email: created.id,
      unsubscribed: true,
    });
    const history = await services.db
      .select()
      .from(contactSubscriptionEvents)
      .where(eq(contactSubscriptionEvents.contactId, created.id))
      .orderBy(contactSubscriptionEvents.id);
    expect(history.map((event) => [event.type, event.source])).toEqual([
      ['unsubscribed', 'system'],
      ['resubscribed', 'system'],
      ['unsubscribed', 'api'],
    ]);
    const shown = await listSubscriptionEvents(ctx(), { id_or_email: 'history@example.org' });
    expect(shown.data.map((event) => event.type)).toEqual(['unsubscribed', 'resubscribed', 'unsubscribed']);
    await deleteContact(ctx(), { id_or_email: created.id });
    expect(
      await services.db
        .select()
        .from(contactSubscriptionEvents)
        .where(eq(contactSubscriptionEvents.contactId, created.id)),
    ).toHaveLength(3);
  });

  it('R2: no contact operation creates, changes or removes a complaint, permanent or protected suppression', async () => {
    const email = 'suppressed@example.org';
    const far = new Date(services.now().getTime() + 365 * 86_400_000);
    for (const [kind, domain] of [
      ['complaint', ''],
      ['protected', 'acme.example'],
      ['bounce', 'beta.example'],
      ['manual', 'gamma.example'],
    ] as const) {
      await services.db.insert(suppressions).values({
        accountId,
        email,
        domain,
        kind,
        reason: kind,
        expiresAt: far,
        createdAt: services.now(),
        updatedAt: services.now(),
      });
    }
    const before = await services.db.select().from(suppressions).where(eq(suppressions.accountId, accountId));
    const created = await createContact(ctx(), { email, unsubscribed: true });
    await updateContact(ctx(), { id_or_email: email, first_name: 'S', unsubscribed: false });
    await unsubscribeContact(ctx(), { id_or_email: email });
    await resubscribeContact(ctx(), { id_or_email: email });
    await deleteContact(ctx(), { id_or_email: created.id });
    await createContact(ctx(), { email: 'no-suppression@example.org', unsubscribed: true });
    expect(await services.db.select().from(suppressions).where(eq(suppressions.accountId, accountId))).toEqual(before);
  });

  it("lists with filters and pagination, never another account's contacts", async () => {
    const other = await newAccount(services, 'Other');
    await createContact(ctx(other.principal), { email: 'ada@example.org' });
    const all = await listContacts(ctx(), { limit: 2 });
    expect(all.items).toHaveLength(2);
    expect(all.hasMore).toBe(true);
    const next = await listContacts(ctx(), { limit: 2, after: all.nextCursor });
    expect(next.items.map((contact) => contact.id)).not.toContain(all.items[0].id);
    expect((await listContacts(ctx(), { email: 'ADA@example.org' })).items.map((contact) => contact.email)).toEqual([
      'ada@example.org',
    ]);
    expect((await listContacts(ctx(), { search: 'a+b' })).items.map((contact) => contact.email)).toEqual([
      'a+b@example.org',
    ]);
    expect((await listContacts(ctx(), { search: '%' })).items).toEqual([]);
    expect(
      (await listContacts(ctx(), { attribute_key: 'plan', attribute_value: 'gold' })).items.map(
        (contact) => contact.email,
      ),
    ).toEqual(['ada@example.org']);
    // Compared in the attribute's type: "36.0" is the number 36, not the text "36".
    expect(
      (await listContacts(ctx(), { attribute_key: 'age', attribute_value: '36.0' })).items.map(
        (contact) => contact.email,
      ),
    ).toEqual(['ada@example.org']);
    // A datetime is compared as an instant: the same moment written in another zone matches.
    await createContact(ctx(), { email: 'seen@example.org', attributes: { seen_at: '2026-01-05T10:30:00Z' } });
    expect(
      (await listContacts(ctx(), { attribute_key: 'seen_at', attribute_value: '2026-01-05T11:30:00+01:00' })).items.map(
        (contact) => contact.email,
      ),
    ).toEqual(['seen@example.org']);
    expect((await listContacts(ctx(), { unsubscribed: 'true' })).items.every((contact) => contact.unsubscribed)).toBe(
      true,
    );
    await expect(getContact(ctx(other.principal), { id_or_email: all.items[0].id })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('needs the contract scopes', async () => {
    const reader = ctx(keyPrincipal(accountId, ['contacts:read']));
    await expect(createContact(reader, { email: 'scope@example.org' })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(
      deleteContact(ctx(keyPrincipal(accountId, ['contacts:write'])), { id_or_email: 'ada@example.org' }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

describe('attribute definitions', () => {
  it('refuses unsafe and reserved keys, and duplicates', async () => {
    for (const key of ['__proto__', 'Constructor', '1abc', 'a-b', 'email', 'x'.repeat(64)]) {
      await expect(createAttributeDefinition(ctx(), { key, type: 'string' })).rejects.toMatchObject({
        kind: 'invalid_input',
      });
    }
    await expect(createAttributeDefinition(ctx(), { key: 'plan', type: 'string' })).rejects.toMatchObject({
      kind: 'conflict',
    });
    expect((await listAttributeDefinitions(ctx(), {})).data.map((definition) => definition.key)).toEqual([
      'age',
      'birthday',
      'plan',
      'seen_at',
      'vip',
    ]);
  });

  it('a type change is 409 while contacts hold values, saying how many; a label change is fine', async () => {
    await createAttributeDefinition(ctx(), { key: 'score', type: 'number' });
    await createContact(ctx(), { email: 'score1@example.org', attributes: { score: 1 } });
    await createContact(ctx(), { email: 'score2@example.org', attributes: { score: 2 } });
    await expect(updateAttributeDefinition(ctx(), { key: 'score', type: 'string' })).rejects.toMatchObject({
      kind: 'conflict',
      message: /^2 contacts hold values of type number for score/,
    });
    expect(await updateAttributeDefinition(ctx(), { key: 'score', label: 'Score' })).toMatchObject({
      key: 'score',
      type: 'number',
      label: 'Score',
    });
    await updateContact(ctx(), { id_or_email: 'score1@example.org', attributes: { score: null } });
    await updateContact(ctx(), { id_or_email: 'score2@example.org', attributes: { score: null } });
    expect(await updateAttributeDefinition(ctx(), { key: 'score', type: 'string' })).toMatchObject({ type: 'string' });
  });

  it('deleting a definition removes its values from every contact', async () => {
    await createAttributeDefinition(ctx(), { key: 'temp', type: 'boolean' });
    await createContact(ctx(), { email: 'temp@example.org', attributes: { temp: false, plan: 'p' } });
    expect((await deleteAttributeDefinition(ctx(), { key: 'temp' })).message).toMatch(/removed from 1 contact$/);
    expect((await getContact(ctx(), { id_or_email: 'temp@example.org' })).attributes).toEqual({ plan: 'p' });
    await expect(deleteAttributeDefinition(ctx(), { key: 'temp' })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
