import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { createDomain } from '@/lib/core/domains/create-domain';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { sendMessage } from '@/lib/core/messages/send-message';
import { createSuppression } from '@/lib/core/suppressions/create-suppression';
import { deleteSuppression } from '@/lib/core/suppressions/delete-suppression';
import { listSuppressions } from '@/lib/core/suppressions/list-suppressions';
import { suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import { wipeSuppressions } from '@/lib/core/suppressions/wipe-suppressions';
import { events, messages } from '@/lib/db/schema';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { loadBatchContext, runPipeline } from '@/lib/mail/delivery-pipeline';
import { Destinations } from '@/lib/mail/destinations';
import { createMailBuilder } from '@/lib/mail/mail-builder';
import { OutcomeWriter } from '@/lib/mail/outcome-writer';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The suppression verbs and the engine's suppressions on an in-memory PGlite, with the test's clock. */
let services: TestServices;
let principal: Principal;
let accountId: string;
const DAY_MS = 24 * 3_600_000;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  for (const domain of ['acme.example', 'beta.example']) {
    const created = await createDomain(as(services, principal), { domain });
    services.dns.publishRecords(created.dns_records);
    await checkDomainDns(as(services, principal), { domain });
  }
}, 60_000);

afterAll(() => services?.close());

const inDays = (days: number) => new Date(services.now().getTime() + days * DAY_MS).toISOString();
const create = (body: Record<string, unknown>, who: Principal = principal) =>
  createSuppression(as(services, who), { expires_at: inDays(30), ...body });
const list = async (query: Record<string, string> = {}, who: Principal = principal) =>
  (await listSuppressions(as(services, who), query)).items;
const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string },
  );
  expect(error, 'expected the verb to refuse').not.toBeNull();
  return error!;
};

describe('createSuppression', () => {
  it('201 as a list of one, the address normalised, for one domain or all, with a suppression.created event', async () => {
    const created = await create({ email: '  Ada@Example.ORG ', domain: 'ACME.example.', reason: 'asked us to stop' });
    expect(created).toEqual({
      object: 'list',
      data: [
        {
          object: 'suppression',
          id: expect.any(String),
          created_at: services.now().toISOString(),
          email: 'ada@example.org',
          domain: 'acme.example',
          reason: 'asked us to stop',
          expires_at: inDays(30),
          kind: 'manual',
        },
      ],
    });
    const everywhere = await create({ email: 'ada@example.org' });
    expect(everywhere.data[0]).toMatchObject({ domain: null, reason: null });
    const [event] = await services.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'suppression.created')));
    expect(event.payload).toEqual({
      account_id: accountId,
      recipient: 'ada@example.org',
      created_at: services.now().toISOString(),
      expires_at: inDays(30),
      reason: 'asked us to stop',
      sending_domain: 'acme.example',
    });
    expect(event.domainId).not.toBeNull();
  });

  it('a duplicate in force is 409; an expired one is replaced by a new suppression', async () => {
    await create({ email: 'dup@example.org', domain: 'beta.example' });
    const duplicate = await rejection(
      create({ email: 'DUP@example.org', domain: 'beta.example', expires_at: inDays(60) }),
    );
    expect(duplicate).toMatchObject({ kind: 'conflict', message: 'suppression already exists' });
    const short = await create({
      email: 'short@example.org',
      expires_at: new Date(services.now().getTime() + 60_000).toISOString(),
    });
    services.clock.advance(120_000);
    const again = await create({ email: 'short@example.org', reason: 'again' });
    expect(again.data[0].id).not.toBe(short.data[0].id);
    expect(again.data[0]).toMatchObject({ reason: 'again', created_at: services.now().toISOString() });
  });

  it.each([
    ['an invalid address', { email: 'not an address' }, 'invalid_input', /^email: invalid email address/],
    [
      'expires_at in the past',
      { email: 'a@example.org', expires_at: '2020-01-01T00:00:00Z' },
      'invalid_input',
      /^expires_at: must be in the future/,
    ],
    [
      'expires_at not RFC 3339',
      { email: 'a@example.org', expires_at: 'tomorrow' },
      'invalid_input',
      /^expires_at: must be an RFC 3339 timestamp/,
    ],
    [
      'a domain of nobody',
      { email: 'a@example.org', domain: 'nobody.example' },
      'invalid_input',
      /^domain: nobody.example is not a domain of this account/,
    ],
    ['an invalid domain', { email: 'a@example.org', domain: 'not a domain' }, 'invalid_input', /^domain: /],
    [
      'a reason over 255 characters',
      { email: 'a@example.org', reason: 'x'.repeat(256) },
      'invalid_input',
      /^reason: must be at most 255 characters/,
    ],
  ])('refuses %s', async (_name, body, kind, message) => {
    expect(await rejection(create(body))).toMatchObject({ kind, message: expect.stringMatching(message) });
  });

  it("needs suppressions:write; another account cannot name this account's domain", async () => {
    expect(
      await rejection(create({ email: 'a@example.org' }, keyPrincipal(accountId, ['suppressions:read']))),
    ).toMatchObject({ kind: 'forbidden' });
    const other = await newAccount(services, 'Other');
    expect(await rejection(create({ email: 'a@example.org', domain: 'acme.example' }, other.principal))).toMatchObject({
      kind: 'invalid_input',
    });
  });
});

describe('listSuppressions', () => {
  it('filters by domain (404 when unknown), email and creation time; expired ones are gone; other accounts never', async () => {
    const { principal: owner } = await newAccount(services, 'Lists');
    const domain = await createDomain(as(services, owner), { domain: 'lists.example' });
    expect(domain.domain).toBe('lists.example');
    const t0 = services.now().toISOString();
    await create({ email: 'one@example.org', domain: 'lists.example' }, owner);
    services.clock.advance(1000);
    const t1 = services.now().toISOString();
    await create({ email: 'two@example.org' }, owner);
    await create(
      { email: 'brief@example.org', expires_at: new Date(services.now().getTime() + 500).toISOString() },
      owner,
    );
    services.clock.advance(1000);
    const names = async (query: Record<string, string> = {}) => (await list(query, owner)).map((item) => item.email);
    expect(await names()).toEqual(['two@example.org', 'one@example.org']);
    expect(await names({ domain: 'LISTS.example' })).toEqual(['one@example.org']);
    expect(await names({ email: 'TWO@example.org' })).toEqual(['two@example.org']);
    expect(await names({ from_time: t1 })).toEqual(['two@example.org']);
    expect(await names({ to_time: t0 })).toEqual(['one@example.org']);
    expect(await names({ domain: '', email: '', cursor: '' })).toHaveLength(2);
    expect(await rejection(list({ domain: 'acme.example' }, owner))).toMatchObject({
      kind: 'not_found',
      message: 'domain not found',
    });
    expect(await rejection(list({ email: 'nope' }, owner))).toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/^email:/),
    });
    const page = await listSuppressions(as(services, owner), { limit: '1' });
    expect(page.hasMore).toBe(true);
    const next = await listSuppressions(as(services, owner), { limit: '1', cursor: page.nextCursor! });
    expect(next.items.map((item) => item.email)).toEqual(['one@example.org']);
  });
});

describe('deleteSuppression and wipeSuppressions', () => {
  let owner: Principal;
  let ownerId: string;
  beforeAll(async () => {
    ({ principal: owner, accountId: ownerId } = await newAccount(services, 'Deletes'));
    for (const domain of ['d1.example', 'd2.example']) await createDomain(as(services, owner), { domain });
  });

  const engine = (email: string, domain: string, kind: 'bounce' | 'complaint' | 'protected') =>
    suppressRecipient(services.db, {
      accountId: ownerId,
      email,
      domain,
      kind,
      reason: kind,
      expiresAt: new Date(services.now().getTime() + DAY_MS),
      at: services.now(),
    });
  const remove = (query: Record<string, string>, who: Principal = owner) => deleteSuppression(as(services, who), query);
  const left = async (query: Record<string, string> = {}) =>
    (await list(query, owner)).map((item) => `${item.email} ${item.domain ?? '*'} ${item.kind}`).sort();

  it('one domain of an address, or every one; protected entries stay (403 when nothing else matched); none is 404', async () => {
    await create({ email: 'x@example.org', domain: 'd1.example' }, owner);
    await create({ email: 'x@example.org', domain: 'd2.example' }, owner);
    await create({ email: 'x@example.org' }, owner);
    await engine('x@example.org', 'd1.example', 'protected').catch(() => null);
    expect(await remove({ email: 'X@example.org', domain: 'd2.example' })).toEqual({
      message: 'suppression of x@example.org deleted',
    });
    expect(await left({ email: 'x@example.org' })).toEqual([
      'x@example.org * manual',
      'x@example.org d1.example manual',
    ]);
    expect(await remove({ email: 'x@example.org' })).toEqual({ message: '2 suppressions of x@example.org deleted' });
    expect(await rejection(remove({ email: 'x@example.org' }))).toMatchObject({
      kind: 'not_found',
      message: 'suppression not found',
    });
    await engine('p@example.org', 'd1.example', 'protected');
    expect(await rejection(remove({ email: 'p@example.org' }))).toMatchObject({
      kind: 'forbidden',
      message: 'protected suppressions cannot be deleted',
    });
    expect(await rejection(remove({ email: 'p@example.org', domain: 'unknown.example' }))).toMatchObject({
      kind: 'not_found',
    });
    expect(await rejection(remove({ email: '' }))).toMatchObject({
      kind: 'invalid_input',
      message: 'email: is required',
    });
    expect(
      await rejection(remove({ email: 'p@example.org' }, keyPrincipal(ownerId, ['suppressions:read']))),
    ).toMatchObject({ kind: 'forbidden', message: expect.stringMatching(/suppressions:delete/) });
  });

  it('wipe removes everything but protected and complaint entries, for the account or one domain (404 when unknown)', async () => {
    await create({ email: 'w1@example.org', domain: 'd1.example' }, owner);
    await create({ email: 'w2@example.org', domain: 'd2.example' }, owner);
    await engine('w3@example.org', 'd2.example', 'bounce');
    await engine('w4@example.org', 'd2.example', 'complaint');
    expect(await rejection(wipeSuppressions(as(services, owner), { domain: 'elsewhere.example' }))).toMatchObject({
      kind: 'not_found',
      message: 'domain not found',
    });
    expect(await wipeSuppressions(as(services, owner), { domain: 'd2.example' })).toEqual({
      message: '2 suppressions deleted for d2.example',
    });
    expect(await left()).toEqual([
      'p@example.org d1.example protected',
      'w1@example.org d1.example manual',
      'w4@example.org d2.example complaint',
    ]);
    expect(await wipeSuppressions(as(services, owner), { domain: '' })).toEqual({ message: '1 suppression deleted' });
    expect(await left()).toEqual(['p@example.org d1.example protected', 'w4@example.org d2.example complaint']);
    expect(
      await rejection(
        wipeSuppressions(as(services, owner), {}).then(() =>
          wipeSuppressions(as(services, keyPrincipal(ownerId, ['suppressions:delete'])), {}),
        ),
      ),
    ).toMatchObject({ kind: 'forbidden' });
  });

  it("another account's suppressions are out of reach", async () => {
    await create({ email: 'mine@example.org' }, owner);
    const other = await newAccount(services, 'Neighbour');
    expect(await rejection(remove({ email: 'mine@example.org' }, other.principal))).toMatchObject({
      kind: 'not_found',
    });
    expect(await wipeSuppressions(as(services, other.principal), {})).toEqual({ message: '0 suppressions deleted' });
    expect(await list({}, other.principal)).toEqual([]);
    expect(await left({ email: 'mine@example.org' })).toEqual(['mine@example.org * manual']);
  });
});

describe('the engine: automatic suppressions and expiry', () => {
  it('a hard bounce renews a suppression in force (one event) and replaces an expired one (a new event)', async () => {
    const { accountId: id } = await newAccount(services, 'Engine');
    const at = services.now();
    const input = {
      accountId: id,
      email: 'b@example.org',
      domain: 'acme.example',
      kind: 'bounce' as const,
      reason: 'hard bounce',
      expiresAt: new Date(at.getTime() + DAY_MS),
      at,
    };
    expect((await suppressRecipient(services.db, input))?.isNew).toBe(true);
    const renewed = await suppressRecipient(services.db, {
      ...input,
      expiresAt: new Date(at.getTime() + 2 * DAY_MS),
      at: new Date(at.getTime() + 1000),
    });
    expect(renewed).toMatchObject({
      isNew: false,
      row: { expiresAt: new Date(at.getTime() + 2 * DAY_MS), createdAt: at },
    });
    const later = new Date(at.getTime() + 3 * DAY_MS);
    const replaced = await suppressRecipient(services.db, {
      ...input,
      reason: 'again',
      expiresAt: new Date(later.getTime() + DAY_MS),
      at: later,
    });
    expect(replaced).toMatchObject({ isNew: true, row: { createdAt: later, reason: 'again' } });
    const created = await services.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, id), eq(events.type, 'suppression.created')));
    expect(created).toHaveLength(2);
  });

  it('an expired suppression no longer blocks sending: suppressed before its expiry, delivered after', async () => {
    const { principal: owner } = await newAccount(services, 'Expiry');
    const domain = await createDomain(as(services, owner), { domain: 'expiry.example' });
    services.dns.publishRecords(domain.dns_records);
    await checkDomainDns(as(services, owner), { domain: 'expiry.example' });
    await createSuppression(as(services, owner), {
      email: 'later@rcpt.example',
      domain: 'expiry.example',
      expires_at: new Date(services.now().getTime() + 3_600_000).toISOString(),
    });
    const send = () =>
      sendMessage(as(services, owner), {
        from: { email: 'news@expiry.example' },
        subject: 'Hi',
        text_content: 'Hi',
        sandbox: true,
        recipients: [{ email: 'later@rcpt.example' }],
      });
    const deliverDue = async () => {
      const claimed = await unsafeClaimDueMessages(services.db, {
        workerId: 'expiry-worker',
        limit: 50,
        leaseMs: 60_000,
        now: services.now(),
      });
      const destinations = new Destinations(services);
      const writer = new OutcomeWriter((outcomes, dataSentIds) =>
        recordOutcomes(services, services.db, 'expiry-worker', outcomes, { now: services.now(), dataSentIds }),
      );
      const batch = await loadBatchContext(services.db, claimed, {
        services,
        now: services.now(),
        destinations,
        mail: createMailBuilder({ threads: 0 }),
        onDataSent: (id) => writer.markDataSent(id),
        recordOutcome: (message, outcome) => writer.record(message, outcome),
      });
      const outcomes = await Promise.all(claimed.map((message) => runPipeline(message, batch)));
      await writer.drain();
      destinations.close();
      return outcomes.map((outcome) => outcome.kind);
    };
    const first = await send();
    expect(await deliverDue()).toEqual(['suppressed']);
    services.clock.advance(3_600_000);
    await send();
    expect(await deliverDue()).toEqual(['delivered']);
    const rows = await services.db
      .select({ id: messages.messageIdHeader, status: messages.status })
      .from(messages)
      .where(eq(messages.recipient, 'later@rcpt.example'));
    expect(rows.find((row) => row.id === first.data[0].id)?.status).toBe('suppressed');
    expect(rows.map((row) => row.status).sort()).toEqual(['delivered', 'suppressed']);
  });
});
