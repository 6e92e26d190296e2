import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { createContact } from '@/lib/core/contacts/create-contact';
import { deleteContact } from '@/lib/core/contacts/delete-contact';
import { listContactLists } from '@/lib/core/contacts/list-contact-lists';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { deleteList } from '@/lib/core/lists/delete-list';
import { getList } from '@/lib/core/lists/get-list';
import { listListMembers } from '@/lib/core/lists/list-list-members';
import { listLists } from '@/lib/core/lists/list-lists';
import { removeListMember } from '@/lib/core/lists/remove-list-member';
import { updateList } from '@/lib/core/lists/update-list';
import { updateListMember } from '@/lib/core/lists/update-list-member';
import { listMemberships } from '@/lib/db/schema';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The list and membership verbs on an in-memory PGlite. */
let services: TestServices;
let principal: Principal;
let accountId: string;
const emails = Array.from({ length: 5 }, (_, index) => `member${index}@example.org`);
const contactIds: string[] = [];

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  for (const email of emails) contactIds.push((await createContact(as(services, principal), { email })).id);
}, 60_000);

afterAll(() => services?.close());

const ctx = (who: Principal = principal) => as(services, who);
const newList = (name = 'Newsletter') => createList(ctx(), { name });
const complain = (listId: string, contactId: string) =>
  services.db
    .update(listMemberships)
    .set({ subscriptionStatus: 'complained' })
    .where(and(eq(listMemberships.listId, listId), eq(listMemberships.contactId, contactId)));

describe('lists', () => {
  it('creates, reads, renames and lists with member counts per status', async () => {
    const list = await createList(ctx(), { name: '  Weekly ', description: 'news' });
    expect(list).toMatchObject({
      object: 'contact_list',
      name: 'Weekly',
      description: 'news',
      member_counts: { unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 },
    });
    await addListMembers(ctx(), { list_id: list.id, contacts: emails.slice(0, 3) });
    await addListMembers(ctx(), { list_id: list.id, contact: emails[3], subscription_status: 'unsubscribed' });
    expect((await getList(ctx(), { list_id: list.id })).member_counts).toEqual({
      unconfirmed: 0,
      confirmed: 3,
      unsubscribed: 1,
      complained: 0,
    });
    expect(await updateList(ctx(), { list_id: list.id, description: null })).toMatchObject({
      name: 'Weekly',
      description: null,
    });
    expect((await listLists(ctx(), {})).items.map((item) => item.id)).toContain(list.id);
  });

  it('R8: a membership created without a status is confirmed; an existing member keeps its status unless one is given', async () => {
    const list = await newList();
    const added = await addListMembers(ctx(), { list_id: list.id, contact: emails[0] });
    expect(added).toMatchObject({
      object: 'list_membership',
      list_id: list.id,
      contact_id: contactIds[0],
      subscription_status: 'confirmed',
    });
    await updateListMember(ctx(), { list_id: list.id, id_or_email: emails[0], subscription_status: 'unconfirmed' });
    expect(await addListMembers(ctx(), { list_id: list.id, contact: emails[0] })).toMatchObject({
      subscription_status: 'unconfirmed',
    });
    expect(
      await addListMembers(ctx(), { list_id: list.id, contact: contactIds[0], subscription_status: 'confirmed' }),
    ).toMatchObject({ subscription_status: 'confirmed' });
  });

  it('R9: complained is never writable and a complained membership is frozen', async () => {
    const list = await newList();
    await addListMembers(ctx(), { list_id: list.id, contacts: emails });
    await expect(
      addListMembers(ctx(), { list_id: list.id, contact: emails[1], subscription_status: 'complained' }),
    ).rejects.toMatchObject({ kind: 'invalid_input', message: /subscription_status: complained/ });
    await expect(
      updateListMember(ctx(), { list_id: list.id, id_or_email: emails[1], subscription_status: 'complained' }),
    ).rejects.toMatchObject({ kind: 'invalid_input' });
    await complain(list.id, contactIds[1]);
    await expect(
      updateListMember(ctx(), { list_id: list.id, id_or_email: emails[1], subscription_status: 'confirmed' }),
    ).rejects.toMatchObject({ kind: 'conflict' });
    await expect(
      addListMembers(ctx(), { list_id: list.id, contacts: emails, subscription_status: 'unsubscribed' }),
    ).rejects.toMatchObject({ kind: 'conflict' });
    await expect(removeListMember(ctx(), { list_id: list.id, id_or_email: emails[1] })).rejects.toMatchObject({
      kind: 'conflict',
    });
    // Without a status, adding again is harmless and leaves it as it is.
    await addListMembers(ctx(), { list_id: list.id, contacts: emails });
    const complained = await listListMembers(ctx(), { list_id: list.id, subscription_status: 'complained' });
    expect(complained.items.map((item) => item.contact_id)).toEqual([contactIds[1]]);
    // The refused bulk request changed nobody.
    expect((await listListMembers(ctx(), { list_id: list.id, subscription_status: 'unsubscribed' })).items).toEqual([]);
  });

  it('R10: deleting a list hides it and keeps its memberships', async () => {
    const list = await newList('Doomed');
    await addListMembers(ctx(), { list_id: list.id, contact: emails[2], subscription_status: 'unsubscribed' });
    await deleteList(ctx(), { list_id: list.id });
    await expect(getList(ctx(), { list_id: list.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(deleteList(ctx(), { list_id: list.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(listListMembers(ctx(), { list_id: list.id })).rejects.toMatchObject({ kind: 'not_found' });
    expect((await listLists(ctx(), {})).items.map((item) => item.id)).not.toContain(list.id);
    const memberships = await listContactLists(ctx(), { id_or_email: emails[2] });
    expect(memberships.items).toContainEqual(
      expect.objectContaining({ list_id: list.id, subscription_status: 'unsubscribed' }),
    );
  });

  it('R11: removing a member deletes the row; adding again starts afresh', async () => {
    const list = await newList();
    await addListMembers(ctx(), { list_id: list.id, contact: emails[3], subscription_status: 'unsubscribed' });
    await removeListMember(ctx(), { list_id: list.id, id_or_email: emails[3] });
    expect(await services.db.select().from(listMemberships).where(eq(listMemberships.listId, list.id))).toEqual([]);
    await expect(removeListMember(ctx(), { list_id: list.id, id_or_email: emails[3] })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await addListMembers(ctx(), { list_id: list.id, contact: emails[3] })).toMatchObject({
      subscription_status: 'confirmed',
    });
  });

  it('R12: include_contacts needs contacts:read as well as lists:read', async () => {
    const list = await newList();
    await addListMembers(ctx(), { list_id: list.id, contacts: emails.slice(0, 2) });
    await expect(
      listListMembers(ctx(keyPrincipal(accountId, ['lists:read'])), { list_id: list.id, include_contacts: 'true' }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
    expect(
      (await listListMembers(ctx(keyPrincipal(accountId, ['lists:read'])), { list_id: list.id })).items,
    ).toHaveLength(2);
    const page = await listListMembers(ctx(keyPrincipal(accountId, ['lists:read', 'contacts:read'])), {
      list_id: list.id,
      include_contacts: 'true',
      limit: 1,
    });
    expect(page.items[0].contact).toMatchObject({ object: 'contact', email: emails[1] });
    const next = await listListMembers(ctx(), {
      list_id: list.id,
      include_contacts: 'true',
      limit: 1,
      after: page.nextCursor,
    });
    expect(next.items[0].contact).toMatchObject({ email: emails[0] });
    expect(next.hasMore).toBe(false);
    expect(next.previousCursor).toBeDefined();
  });

  it('an unknown contact is 404 and adds nobody; another account cannot see or use the list', async () => {
    const list = await newList();
    await expect(
      addListMembers(ctx(), {
        list_id: list.id,
        contacts: [emails[0], 'nobody@example.org', '01a20000-0000-7000-8000-000000000000'],
      }),
    ).rejects.toMatchObject({ kind: 'not_found', message: /nobody@example.org/ });
    expect((await getList(ctx(), { list_id: list.id })).member_counts.confirmed).toBe(0);
    const other = await newAccount(services, 'Other');
    await expect(getList(ctx(other.principal), { list_id: list.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      addListMembers(ctx(), {
        list_id: list.id,
        contact: (await createContact(ctx(other.principal), { email: 'theirs@example.org' })).id,
      }),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('parallel adds of the same members neither fail nor duplicate; deleting a contact removes its memberships', async () => {
    const list = await newList();
    await Promise.all(Array.from({ length: 4 }, () => addListMembers(ctx(), { list_id: list.id, contacts: emails })));
    expect((await getList(ctx(), { list_id: list.id })).member_counts.confirmed).toBe(5);
    await deleteContact(ctx(), { id_or_email: emails[4] });
    expect((await getList(ctx(), { list_id: list.id })).member_counts.confirmed).toBe(4);
  });
});
