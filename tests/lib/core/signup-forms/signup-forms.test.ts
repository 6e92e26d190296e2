import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { updateAccount } from '@/lib/core/accounts/update-account';
import { countAudience } from '@/lib/core/campaigns/internal/audience';
import { createAttributeDefinition } from '@/lib/core/contact-attributes/create-attribute-definition';
import { createList } from '@/lib/core/lists/create-list';
import { unsafeConfirmSignup } from '@/lib/core/signup-forms/confirm-signup';
import { unsafeDescribeSignupConfirmation } from '@/lib/core/signup-forms/describe-signup-confirmation';
import { createSignupForm } from '@/lib/core/signup-forms/create-signup-form';
import { unsafeSubmitSignupForm } from '@/lib/core/signup-forms/submit-signup-form';
import { contacts, domains, listMemberships, messageContents, signupConfirmations } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** Signups, confirmation links and the shield on campaign audiences, on an in-memory PGlite. */
let services: TestServices;
let principal: Principal;
let accountId: string;
let listId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  listId = (await createList(as(services, principal), { name: 'News' })).id;
  await createAttributeDefinition(as(services, principal), { key: 'age', type: 'number' });
  await services.db
    .insert(domains)
    .values({ accountId, domain: 'news.example.com', sendingType: 'marketing', dnsValid: true });
}, 60_000);

afterAll(() => services?.close());

const newForm = async (body: Record<string, unknown> = {}) =>
  (await createSignupForm(as(services, principal), { name: 'Join', list_ids: [listId], fields: ['age'], ...body })).id;
const submit = (formId: string, posted: Record<string, unknown>) =>
  unsafeSubmitSignupForm(services, { formId, posted, isFormEncoded: true, clientIp: '198.51.100.7' });
const statusOf = async (email: string) => {
  const [row] = await services.db
    .select({ status: listMemberships.subscriptionStatus })
    .from(listMemberships)
    .innerJoin(contacts, eq(contacts.id, listMemberships.contactId))
    .where(and(eq(contacts.email, email), eq(listMemberships.listId, listId)));
  return row?.status ?? null;
};
/** The link of the latest confirmation mail: read from the queued content, as the recipient would. */
const latestLink = async (email: string) => {
  const rows = await services.db.select({ structured: messageContents.structured }).from(messageContents);
  const mail = rows.map((row) => row.structured?.text ?? '').filter((text) => text.includes('/f/confirm/'));
  expect(mail.length, `no confirmation mail for ${email}`).toBeGreaterThan(0);
  return /\/f\/confirm\/([A-Za-z0-9]+)/.exec(mail.at(-1)!)![1];
};

describe('signups and confirmation', () => {
  it('a double opt-in signup is unconfirmed until its link is opened, once', async () => {
    const formId = await newForm();
    expect(await submit(formId, { email: 'Ada@Example.org', first_name: 'Ada', age: '36' })).toMatchObject({
      kind: 'accepted',
      isDoubleOptIn: true,
    });
    expect(await statusOf('ada@example.org')).toBe('unconfirmed');
    const token = await latestLink('ada@example.org');
    expect(await unsafeConfirmSignup(services, token)).toMatchObject({ kind: 'confirmed', listNames: ['News'] });
    expect(await statusOf('ada@example.org')).toBe('confirmed');
    expect(await unsafeConfirmSignup(services, token)).toEqual({ kind: 'used' });
  });

  it("the link's page changes nothing however often it is read; only the confirmation does", async () => {
    const formId = await newForm({ redirect_url: 'https://example.com/thanks' });
    await submit(formId, { email: 'scanned@example.org' });
    const token = await latestLink('scanned@example.org');
    for (let read = 0; read < 2; read++)
      expect(await unsafeDescribeSignupConfirmation(services, token)).toEqual({
        redirectUrl: 'https://example.com/thanks',
      });
    expect(await statusOf('scanned@example.org')).toBe('unconfirmed');
    expect(await unsafeConfirmSignup(services, token)).toMatchObject({ kind: 'confirmed' });
    expect(await statusOf('scanned@example.org')).toBe('confirmed');
    expect(await unsafeDescribeSignupConfirmation(services, token)).toBeNull();
    for (const junk of ['x', 'A'.repeat(43), `${token.slice(0, -1)}!`])
      expect(await unsafeDescribeSignupConfirmation(services, junk)).toBeNull();
  });

  it('an expired link confirms nothing', async () => {
    const formId = await newForm();
    await submit(formId, { email: 'late@example.org' });
    const token = await latestLink('late@example.org');
    services.clock.advance(8 * 24 * 3600 * 1000);
    expect(await unsafeConfirmSignup(services, token)).toEqual({ kind: 'expired' });
    expect(await statusOf('late@example.org')).toBe('unconfirmed');
  });

  it('a second signup sends no second mail within ten minutes, and never overwrites what the contact holds', async () => {
    const formId = await newForm();
    await submit(formId, { email: 'bo@example.org', first_name: 'Bo', age: '40' });
    await submit(formId, { email: 'bo@example.org', last_name: 'Berg' });
    const [contact] = await services.db.select().from(contacts).where(eq(contacts.email, 'bo@example.org'));
    expect(contact).toMatchObject({ firstName: 'Bo', lastName: 'Berg', attributes: { age: 40 } });
    // Anyone can post an address: a later post fills only what is empty, never what the contact holds.
    await submit(formId, { email: 'bo@example.org', first_name: 'Claim a refund at evil.example', age: '99' });
    const [after] = await services.db.select().from(contacts).where(eq(contacts.email, 'bo@example.org'));
    expect(after).toMatchObject({ firstName: 'Bo', lastName: 'Berg', attributes: { age: 40 } });
    const links = await services.db
      .select()
      .from(signupConfirmations)
      .where(eq(signupConfirmations.contactId, contact!.id));
    expect(links).toHaveLength(1);
  });

  it('parallel signups of one address make one contact and one confirmation mail', async () => {
    const formId = await newForm();
    await Promise.all(
      Array.from({ length: 6 }, (_, index) => submit(formId, { email: 'par@example.org', first_name: `P${index}` })),
    );
    const found = await services.db.select().from(contacts).where(eq(contacts.email, 'par@example.org'));
    expect(found).toHaveLength(1);
    const links = await services.db
      .select()
      .from(signupConfirmations)
      .where(eq(signupConfirmations.contactId, found[0]!.id));
    expect(links).toHaveLength(1);
    await latestLink('par@example.org');
  });

  it('a single opt-in signup is confirmed at once, and unsubscribed or complained members stay as they are', async () => {
    const formId = await newForm({ double_opt_in: false });
    await submit(formId, { email: 'cy@example.org' });
    expect(await statusOf('cy@example.org')).toBe('confirmed');
    for (const status of ['unsubscribed', 'complained']) {
      const email = `${status}@example.org`;
      await submit(formId, { email });
      await services.db
        .update(listMemberships)
        .set({ subscriptionStatus: status })
        .where(eq(listMemberships.listId, listId));
      await submit(formId, { email });
      expect(await statusOf(email)).toBe(status);
    }
  });

  it('a honeypot or an oversize value is accepted and stores nothing', async () => {
    const formId = await newForm();
    expect(await submit(formId, { email: 'robot@example.org', hp_website: 'http://spam' })).toMatchObject({
      kind: 'accepted',
    });
    expect(await submit(formId, { email: 'robot2@example.org', first_name: 'x'.repeat(500) })).toMatchObject({
      kind: 'accepted',
    });
    expect(await services.db.select().from(contacts).where(eq(contacts.email, 'robot@example.org'))).toEqual([]);
    expect(await services.db.select().from(contacts).where(eq(contacts.email, 'robot2@example.org'))).toEqual([]);
  });
});

describe('the Reputation Shield on campaign audiences', () => {
  it('leaves out disposable and mistyped addresses when on, as API sends do', async () => {
    const shieldList = (await createList(as(services, principal), { name: 'Shielded' })).id;
    const emails = ['ok@example.org', 'temp@mailinator.com', 'sub@eu.yopmail.com', 'typo@gmial.com', 'fine@gmail.com'];
    for (const email of emails) {
      const [row] = await services.db.insert(contacts).values({ accountId, email }).returning();
      await services.db.insert(listMemberships).values({ listId: shieldList, contactId: row!.id, accountId });
    }
    const target = { accountId, listIds: [shieldList], senderDomain: 'news.example.com', at: services.now() };
    expect(await countAudience(services.db, target)).toBe(5);
    await updateAccount(as(services, principal), { reject_bad_recipients: true });
    expect(await countAudience(services.db, target)).toBe(3);
    await updateAccount(as(services, principal), { reject_mistyped_recipients: true });
    expect(await countAudience(services.db, target)).toBe(2);
    expect(await countAudience(services.db, { ...target, isShieldIgnored: true })).toBe(5);
  });
});
