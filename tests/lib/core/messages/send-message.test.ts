import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomain } from '@/lib/core/domains/create-domain';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { cancelMessage } from '@/lib/core/messages/cancel-message';
import { sendConversation } from '@/lib/core/messages/send-conversation';
import { sendMessage } from '@/lib/core/messages/send-message';
import { sendV1Message } from '@/lib/core/messages/send-v1-message';
import { events, messageContents, messages } from '@/lib/db/schema';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';
import type { Principal } from '@/lib/auth/principal';

/** The send verbs on an in-memory database, with the test's own clock and resolver. */
let services: TestServices;
let principal: Principal;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  const domain = await createDomain(as(services, principal), { domain: 'acme.example' });
  services.dns.publishRecords(domain.dns_records);
  const checked = await checkDomainDns(as(services, principal), { domain: 'acme.example' });
  expect(checked.dns_valid).toBe(true);
  await createDomain(as(services, principal), { domain: 'unverified.example' });
}, 60_000);

afterAll(() => services?.close());

const send = (body: Record<string, unknown>, who: Principal = principal) =>
  sendMessage(as(services, who), {
    from: { email: 'news@acme.example' },
    subject: 'Hello',
    text_content: 'Hi',
    recipients: [{ email: 'a@example.org' }],
    ...body,
  });

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string },
  );
  expect(error, 'expected the verb to refuse').not.toBeNull();
  return error!;
};

describe('sendMessage', () => {
  it('queues one message per recipient, the content once, and a reception event each', async () => {
    const result = await send({
      recipients: [{ email: 'A@Example.org', name: 'A' }, { email: 'b@example.org' }, { email: 'not an address' }],
    });
    expect(result.data.map((item) => item.status)).toEqual(['queued', 'queued', 'error']);
    expect(result.data[0].recipient.email).toBe('a@example.org');
    const ids = result.data.filter((item) => item.id).map((item) => item.id!);
    expect(new Set(ids).size).toBe(2);
    const rows = await services.db.select().from(messages).where(eq(messages.accountId, accountId));
    const sent = rows.filter((row) => ids.includes(row.messageIdHeader));
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((row) => row.contentId)).size).toBe(1);
    expect(sent.every((row) => row.createdAt.getTime() === services.now().getTime())).toBe(true);
    const receptions = await services.db.select().from(events).where(eq(events.type, 'message.reception'));
    expect(receptions.filter((event) => sent.some((row) => row.id === event.messageId))).toHaveLength(2);
  });

  it('refuses a key scoped to another domain with 403, before anything is stored', async () => {
    const before = (await services.db.select().from(messageContents)).length;
    const error = await rejection(send({}, keyPrincipal(accountId, ['messages:send:{other.example}'])));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('messages:send:{acme.example}');
    expect((await services.db.select().from(messageContents)).length).toBe(before);
  });

  it('accepts a key scoped to the sender domain', async () => {
    const result = await send({}, keyPrincipal(accountId, ['messages:send:{acme.example}']));
    expect(result.data[0].status).toBe('queued');
  });

  it.each([
    ['an unverified domain', { from: { email: 'x@unverified.example' } }, 'from.email', 'not verified'],
    ['a domain of nobody', { from: { email: 'x@nobody.example' } }, 'from.email', 'not a domain of this account'],
    ['no body at all', { text_content: null }, 'text_content', 'Either text_content or html_content is required'],
    [
      'reply_to and a Reply-To header',
      { reply_to: { email: 'r@acme.example' }, headers: { 'Reply-To': 'x@acme.example' } },
      'reply_to',
      'not both',
    ],
    [
      'a schedule more than 7 days ahead',
      { schedule: { first_attempt: '2026-12-10T00:00:00Z' } },
      'schedule',
      '7 days',
    ],
    [
      'no recipient that can be accepted',
      { recipients: [{ email: 'nope' }] },
      'recipients',
      'no recipient could be accepted',
    ],
  ])('refuses %s with 400 naming %s', async (_name, body, field, text) => {
    const error = await rejection(send(body));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toContain(field);
    expect(error.message).toContain(text);
  });

  it('renders templates per recipient at acceptance and refuses one that breaks its limits', async () => {
    const ok = await send({
      text_content: 'Hi {{ name | default("friend") }}',
      substitutions: {},
      recipients: [{ email: 'a@example.org', substitutions: { name: 'Ann' } }],
    });
    expect(ok.data[0].status).toBe('queued');
    const error = await rejection(
      send({ text_content: '{% for i in range(100000000) %}x{% endfor %}', substitutions: {} }),
    );
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/^text_content: /);
  });
});

describe('cancelMessage', () => {
  it('cancels a scheduled message, and refuses a message that is not scheduled with 400', async () => {
    const firstAttempt = new Date(services.now().getTime() + 3600_000).toISOString();
    const scheduled = await send({ schedule: { first_attempt: firstAttempt } });
    expect(scheduled.data[0].status).toBe('scheduled');
    const id = scheduled.data[0].id!;
    const cancelled = await cancelMessage(as(services, principal), { message_id: id });
    expect(cancelled.message).toContain('cancelled');
    const again = await rejection(cancelMessage(as(services, principal), { message_id: id }));
    expect(again.kind).toBe('invalid_input');
    const queued = await send({});
    const error = await rejection(cancelMessage(as(services, principal), { message_id: queued.data[0].id! }));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toContain('only scheduled messages can be cancelled');
  });

  it("does not find another account's message", async () => {
    const other = await newAccount(services, 'Other');
    const scheduled = await send({
      schedule: { first_attempt: new Date(services.now().getTime() + 3600_000).toISOString() },
    });
    const error = await rejection(cancelMessage(as(services, other.principal), { message_id: scheduled.data[0].id! }));
    expect(error.kind).toBe('not_found');
  });
});

describe('conversation and v1', () => {
  it('sends one message to To, Cc and Bcc with one Message-ID, and never templates', async () => {
    const result = await sendConversation(as(services, principal), {
      from: { email: 'me@acme.example' },
      to: [{ email: 'to@example.org' }],
      cc: [{ email: 'cc@example.org' }],
      bcc: [{ email: 'bcc@example.org' }],
      subject: '{{ not_a_template }}',
      text_content: 'Hi',
    });
    expect(result.data).toHaveLength(3);
    expect(new Set(result.data.map((item) => item.id)).size).toBe(1);
    const [content] = await services.db
      .select()
      .from(messageContents)
      .where(
        eq(
          messageContents.id,
          (await services.db.select().from(messages).where(eq(messages.messageIdHeader, result.data[0].id)))[0]
            .contentId,
        ),
      );
    expect(content.isTemplated).toBe(false);
    expect(content.structured?.cc).toEqual([{ email: 'cc@example.org', name: null }]);
  });

  it('v1 counts recipients it could not accept instead of refusing the request', async () => {
    const result = await sendV1Message(as(services, principal), {
      from: { email: 'me@acme.example' },
      recipients: [{ email: 'ok@example.org' }, { email: 'broken' }],
      content: { subject: 'Hi', text_body: 'Hello' },
    });
    expect(result).toMatchObject({ success_count: 1, fail_count: 1, failed_recipients: ['broken'] });
  });
});
