import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactDisplayName,
  contactDisplayNameSql,
  contactSubstitutions,
  contactSubstitutionsSql,
} from '@/lib/core/campaigns/internal/audience';
import { acceptMessages, type Acceptance } from '@/lib/core/messages/internal/accept-messages';
import { acceptSelectedMessages } from '@/lib/core/messages/internal/accept-selected-messages';
import { messageIdOfReturnPathToken } from '@/lib/core/messages/internal/return-path-token';
import { events, messageContents, messages, statsHourly } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * The database-built acceptance (campaigns) must write what acceptMessages writes for the same
 * recipients: compared column by column on one database, except what is random per row.
 */
let services: TestServices;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

// Hostile and awkward contact values: quotes, an attribute named like a contact field, unicode, empty names.
const contacts = [
  {
    contactId: newId(),
    email: 'ada@one.example',
    firstName: 'Ada',
    lastName: "O'Brien",
    attributes: { plan: 'pro', email: 'spoofed@evil.example', nested: { a: [1, 2] } },
  },
  { contactId: newId(), email: 'bob@two.example', firstName: '', lastName: 'Ünïcødé "quoted"', attributes: null },
  {
    contactId: newId(),
    email: 'cy@two.example',
    firstName: null,
    lastName: null,
    attributes: { '{{ x }}': '<script>' },
  },
].sort((a, b) => (a.contactId < b.contactId ? -1 : 1));

function acceptanceOf(now: Date): Omit<Acceptance, 'recipients'> {
  return {
    accountId,
    sender: { email: 'news@acme.example', domainId: newId(), domain: 'acme.example' },
    subject: 'Hello {{ first_name }}',
    content: {
      kind: 'structured',
      structured: {
        from: { email: 'news@acme.example', name: 'News' },
        subject: 'Hello',
        text: 'Hi',
        html: null,
        amp: null,
        replyTo: null,
        headers: [],
        attachments: [],
      },
      globalSubstitutions: null,
      isTemplated: true,
    },
    options: {
      isSandbox: false,
      sandboxResult: null,
      tags: ['campaign', "it's"],
      trackOpens: true,
      trackClicks: false,
      firstAttemptAt: now,
      expiresAt: new Date(now.getTime() + 3 * 86_400_000),
      isScheduled: false,
      metadataRetentionDays: 30,
      dataRetentionDays: 3,
      campaignId: newId(),
    },
    now,
  };
}

// The campaign's SQL twins of the contact fields, over the same aliases as the audience query.
const source = (rows: typeof contacts) => sql`
  select r.contact_id, r.email, ${contactDisplayNameSql} as name, ${contactSubstitutionsSql} as substitutions
  from unnest(
    ${sql.param(rows.map((row) => row.contactId))}::uuid[], ${sql.param(rows.map((row) => row.email))}::text[], ${sql.param(rows.map((row) => row.firstName))}::text[],
    ${sql.param(rows.map((row) => row.lastName))}::text[], ${sql.param(rows.map((row) => (row.attributes ? JSON.stringify(row.attributes) : null)))}::text[]
  ) as x(contact_id, email, first_name, last_name, attributes)
  cross join lateral (select x.contact_id, x.email) r
  cross join lateral (select x.first_name, x.last_name, x.attributes::jsonb as attributes) c
  order by r.contact_id`;

const comparable = (row: typeof messages.$inferSelect) => ({
  ...row,
  id: undefined,
  messageIdHeader: undefined,
  returnPathToken: undefined,
  contentId: undefined,
  campaignId: undefined,
});

describe('acceptSelectedMessages', () => {
  it('writes the same rows, reception events and counters as acceptMessages', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const byNode = acceptanceOf(now);
    const byDatabase = { ...acceptanceOf(now), sender: byNode.sender };
    const recipients = contacts.map((contact) => ({
      email: contact.email,
      domain: contact.email.split('@')[1],
      name: contactDisplayName(contact),
      substitutions: contactSubstitutions(contact),
      contactId: contact.contactId,
    }));
    const written = await acceptMessages(services.db, { ...byNode, recipients });
    const result = await services.db.transaction((tx) => acceptSelectedMessages(tx, byDatabase, source(contacts)));
    expect(result).toEqual({ queued: 3, through: contacts[2].contactId });

    const nodeRows = await services.db
      .select()
      .from(messages)
      .where(eq(messages.campaignId, byNode.options.campaignId!))
      .orderBy(messages.contactId);
    const databaseRows = await services.db
      .select()
      .from(messages)
      .where(eq(messages.campaignId, byDatabase.options.campaignId!))
      .orderBy(messages.contactId);
    expect(written).toHaveLength(3);
    expect(databaseRows.map(comparable)).toEqual(nodeRows.map(comparable));
    for (const row of databaseRows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Math.abs(Number(BigInt(`0x${row.id.replace(/-/g, '').slice(0, 12)}`)) - Date.now())).toBeLessThan(60_000);
      expect(row.messageIdHeader).toBe(`<${row.id}@acme.example>`);
      expect(row.returnPathToken).toMatch(new RegExp(`^${row.id.replaceAll('-', '')}[0-9a-f]{20}$`));
      expect(messageIdOfReturnPathToken(row.returnPathToken)).toBe(row.id);
    }
    expect(new Set(databaseRows.map((row) => row.returnPathToken)).size).toBe(3);
    expect(databaseRows.find((row) => row.recipient === 'ada@one.example')!.substitutions).toEqual({
      email: 'ada@one.example',
      first_name: 'Ada',
      last_name: "O'Brien",
      plan: 'pro',
      nested: { a: [1, 2] },
    });
    expect(databaseRows.map((row) => row.recipientName)).toEqual(nodeRows.map((row) => row.recipientName));

    const [content] = await services.db
      .select()
      .from(messageContents)
      .where(eq(messageContents.id, databaseRows[0].contentId));
    const [nodeContent] = await services.db
      .select()
      .from(messageContents)
      .where(eq(messageContents.id, nodeRows[0].contentId));
    expect({ ...content, id: undefined }).toEqual({ ...nodeContent, id: undefined });

    const eventsOf = async (rows: typeof nodeRows) => {
      const found = await services.db
        .select()
        .from(events)
        .where(
          inArray(
            events.messageId,
            rows.map((row) => row.id),
          ),
        );
      return found
        .map((event) => ({
          ...event,
          id: undefined,
          messageId: undefined,
          payload: {
            ...(event.payload as Record<string, unknown>),
            id: undefined,
            message_id_header: undefined,
          } as Record<string, unknown>,
        }))
        .sort((a, b) => (String(a.payload.recipient) < String(b.payload.recipient) ? -1 : 1));
    };
    const databaseEvents = await eventsOf(databaseRows);
    expect(databaseEvents).toHaveLength(3);
    expect(databaseEvents).toEqual(await eventsOf(nodeRows));
    const [one] = await services.db.select().from(events).where(eq(events.messageId, databaseRows[0].id));
    expect(one.payload).toMatchObject({
      id: databaseRows[0].id,
      message_id_header: databaseRows[0].messageIdHeader,
      recipient: databaseRows[0].recipient,
    });

    // Both acceptances counted their recipients per recipient domain: twice each.
    const counters = await services.db
      .select()
      .from(statsHourly)
      .where(and(eq(statsHourly.accountId, accountId), eq(statsHourly.senderDomain, 'acme.example')));
    const byDomain = Object.fromEntries(counters.map((row) => [row.recipientDomain, row.reception]));
    expect(byDomain).toEqual({ 'one.example': 2, 'two.example': 4 });
  });

  it('queues nothing and returns no cursor when the source is empty', async () => {
    const result = await services.db.transaction((tx) =>
      acceptSelectedMessages(tx, acceptanceOf(new Date()), source([])),
    );
    expect(result).toEqual({ queued: 0, through: null });
  });
});
