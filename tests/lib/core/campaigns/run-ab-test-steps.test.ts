import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignTally } from '@/lib/core/campaigns/campaign-counters';
import { resolveVariantContent } from '@/lib/core/campaigns/internal/ab-test';
import { chooseCampaignVariant } from '@/lib/core/campaigns/choose-campaign-variant';
import { createCampaign } from '@/lib/core/campaigns/create-campaign';
import { duplicateCampaign } from '@/lib/core/campaigns/duplicate-campaign';
import { getCampaignReport } from '@/lib/core/campaigns/get-campaign-report';
import { unsafeChooseDueWinner, unsafeQueueAbTestBatch } from '@/lib/core/campaigns/run-ab-test-steps';
import {
  unsafeQueueCampaignBatch,
  unsafeStartDueCampaign,
  unsafeValidateNextCampaign,
} from '@/lib/core/campaigns/run-campaign-steps';
import { sendCampaign } from '@/lib/core/campaigns/send-campaign';
import { signUnsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from '@/lib/core/campaigns/unsubscribe-links';
import { unsafeUnsubscribeRecipient } from '@/lib/core/campaigns/unsubscribe-recipient';
import { createContact } from '@/lib/core/contacts/create-contact';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { unsafeRecordMessageComplaint } from '@/lib/core/messages/internal/record-message-complaint';
import { createTemplate } from '@/lib/core/templates/create-template';
import { deleteTemplate } from '@/lib/core/templates/delete-template';
import { publishTemplate } from '@/lib/core/templates/publish-template';
import { updateTemplate } from '@/lib/core/templates/update-template';
import type { Principal } from '@/lib/auth/principal';
import { campaignRecipients, campaigns, domains, messages } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * An A/B campaign through the worker's steps on in-memory PGlite, on the test's clock: the split at
 * the snapshot, the test part with each variant's content, the wait, the winner, the rest.
 */
describe('A/B campaign steps (in-memory PGlite)', () => {
  let services: TestServices;
  let principal: Principal;
  let listId: string;
  const AUDIENCE = 40;

  beforeAll(async () => {
    services = await memoryServices();
    ({ principal } = await newAccount(services));
    const domain = await createDomain(as(services, principal), { domain: 'ab.example' });
    services.dns.publishRecords(domain.dns_records);
    await checkDomainDns(as(services, principal), { domain: 'ab.example' });
    await services.db.update(domains).set({ sendingType: 'marketing' }).where(eq(domains.domain, 'ab.example'));
    listId = (await createList(as(services, principal), { name: 'Readers' })).id;
    const emails = Array.from({ length: AUDIENCE }, (_, index) => `reader${index}@rcpt.example`);
    for (const email of emails) await createContact(as(services, principal), { email, first_name: 'R' });
    await addListMembers(as(services, principal), { list_id: listId, contacts: emails });
  }, 60_000);

  afterAll(async () => {
    await services?.close();
  });

  const ctx = () => as(services, principal);
  const row = async (id: string) => (await services.db.select().from(campaigns).where(eq(campaigns.id, id)))[0];

  async function abCampaign(extra: Record<string, unknown> = {}) {
    const created = await createCampaign(ctx(), {
      name: 'AB',
      from: { email: 'news@ab.example', name: 'News' },
      subject: 'Plain subject',
      html_content: '<p>Hello</p>',
      list_ids: [listId],
      variants: [{ subject: 'Subject A {{ first_name }}' }, { subject: 'Subject B', from_name: 'Team B' }],
      ab_test: { test_percent: 20, metric: 'opens', wait_minutes: 15 },
      ...extra,
    });
    await sendCampaign(ctx(), { campaign_id: created.id });
    expect(await unsafeValidateNextCampaign(services)).toBe('worked');
    expect(await unsafeStartDueCampaign(services)).toBe('worked');
    return created.id;
  }

  const messagesOf = (id: string) =>
    services.db
      .select({ recipient: messages.recipient, subject: messages.subject, variant: messages.campaignVariantId })
      .from(messages)
      .where(eq(messages.campaignId, id));

  it('splits 20% evenly at the snapshot, queues the test part with each variant, waits, then sends the winner to the rest', async () => {
    const id = await abCampaign();
    expect(await row(id)).toMatchObject({ status: 'sending', abPhase: 'testing', recipientCount: AUDIENCE });
    const drawn = await services.db
      .select({ variant: campaignRecipients.variantId, n: sql<number>`count(*)::int` })
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, id), isNotNull(campaignRecipients.variantId)))
      .groupBy(campaignRecipients.variantId);
    expect(Object.fromEntries(drawn.map((group) => [group.variant, Number(group.n)]))).toEqual({ a: 4, b: 4 });

    // The plain queue step leaves a campaign in its test alone; the test step queues in small batches.
    expect(await unsafeQueueCampaignBatch(services, { batchSize: 3 })).toBe('idle');
    await unsafeQueueAbTestBatch(services, { batchSize: 3, maxBatches: 1 });
    expect((await row(id)).abPhase).toBe('testing');
    await unsafeQueueAbTestBatch(services, { batchSize: 3 });
    const waiting = await row(id);
    expect(waiting).toMatchObject({ abPhase: 'waiting', queuedCount: 8, queuedThrough: null, queuedAt: null });
    expect(waiting.abWaitUntil!.getTime() - waiting.testQueuedAt!.getTime()).toBe(15 * 60_000);
    const tested = await messagesOf(id);
    expect(tested).toHaveLength(8);
    // Rendered per recipient at delivery; queued, the record holds the variant's template.
    for (const message of tested)
      expect(message.subject).toBe(message.variant === 'a' ? 'Subject A {{ first_name }}' : 'Subject B');

    // Opens as delivery and tracking count them: b has the better unique rate (3 of 4 against 2 of 4).
    const tally = new CampaignTally();
    for (const [variant, opened] of [
      ['a', 2],
      ['b', 3],
    ] as const) {
      const ref = { campaignId: id, accountId: principal.targetAccountId, campaignVariantId: variant };
      tally.add(ref, 'delivered', 4);
      tally.add(ref, 'opened', opened);
    }
    await tally.flush(services.db);
    // Before the wait is over nothing is chosen; after it, the best rate wins.
    expect(await unsafeChooseDueWinner(services)).toBe('idle');
    services.clock.advance(15 * 60_000 - 1);
    expect(await unsafeChooseDueWinner(services)).toBe('idle');
    services.clock.advance(1);
    expect(await unsafeChooseDueWinner(services)).toBe('worked');
    expect(await row(id)).toMatchObject({ abPhase: 'winner_sent', winnerVariantId: 'b' });

    await unsafeQueueCampaignBatch(services, { batchSize: 7 });
    const all = await messagesOf(id);
    expect(all).toHaveLength(AUDIENCE);
    expect(new Set(all.map((message) => message.recipient)).size).toBe(AUDIENCE);
    expect(all.filter((message) => message.variant === 'b')).toHaveLength(AUDIENCE - 4);
    expect(all.filter((message) => message.variant === 'b' && message.subject !== 'Subject B')).toEqual([]);
    expect((await row(id)).queuedAt).not.toBeNull();

    const report = await getCampaignReport(ctx(), { campaign_id: id });
    expect(report.variants.map((variant) => [variant.id, variant.recipients, variant.is_winner])).toEqual([
      ['a', 4, false],
      ['b', AUDIENCE - 4, true],
    ]);
    expect(report.variants.reduce((sum, variant) => sum + variant.recipients, 0)).toBe(report.totals.recipients);
    expect(report.variants.map((variant) => variant.open_rate)).toEqual([0.5, 0.75]);
  });

  it('a hand choice is durable with the phase; a second one is 409, an unknown variant 404', async () => {
    const id = await abCampaign({ ab_test: { test_percent: 10, metric: 'clicks', wait_minutes: 60 } });
    await expect(chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'b' })).rejects.toMatchObject({
      kind: 'conflict',
    });
    await unsafeQueueAbTestBatch(services, { batchSize: 100 });
    await expect(chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'zz' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    const chosen = await chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'b' });
    expect(chosen).toMatchObject({ ab_phase: 'winner_sent', winner_variant_id: 'b' });
    await expect(chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'a' })).rejects.toMatchObject({
      kind: 'conflict',
    });
    // The timed choice finds nothing left to choose, even once the wait is over.
    services.clock.advance(61 * 60_000);
    await unsafeChooseDueWinner(services);
    expect((await row(id)).winnerVariantId).toBe('b');
    await unsafeQueueCampaignBatch(services, { batchSize: 100 });
    const rest = (await messagesOf(id)).filter((message) => message.variant === 'b');
    expect(rest.length).toBeGreaterThan(AUDIENCE / 2);
    for (const message of rest) expect(message.subject).toBe('Subject B');
  });

  it('an audience too small for the variants goes back to draft saying why', async () => {
    const small = (await createList(ctx(), { name: 'Two' })).id;
    await addListMembers(ctx(), { list_id: small, contacts: ['reader0@rcpt.example', 'reader1@rcpt.example'] });
    const created = await createCampaign(ctx(), {
      name: 'Tiny',
      from: { email: 'news@ab.example' },
      subject: 'S',
      html_content: '<p>x</p>',
      list_ids: [small],
      variants: [{ subject: 'A' }, { subject: 'B' }],
      ab_test: { test_percent: 50, metric: 'opens', wait_minutes: 15 },
    });
    await sendCampaign(ctx(), { campaign_id: created.id });
    await unsafeValidateNextCampaign(services);
    await unsafeStartDueCampaign(services);
    const back = await row(created.id);
    expect(back.status).toBe('draft');
    expect(back.validationErrors).toEqual([
      { field: 'ab_test', message: expect.stringMatching(/needs at least 3 recipients .* the audience has 2/) },
    ]);
    const left = await services.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, created.id));
    expect(left).toHaveLength(0);
  });

  it("a variant's preheader is what its recipients see in the inbox; without one, the campaign's", async () => {
    const created = await createCampaign(ctx(), {
      name: 'AB preheader',
      from: { email: 'news@ab.example' },
      subject: 'S',
      preheader: 'Campaign preview',
      html_content: '<p>Hello</p>',
      list_ids: [listId],
      variants: [{ subject: 'A', preheader: 'Preview of A' }, { subject: 'B' }],
      ab_test: { test_percent: 20, metric: 'opens', wait_minutes: 15 },
    });
    expect(created.variants!.map((variant) => variant.preheader)).toEqual(['Preview of A', null]);
    const stored = await row(created.id);
    const [a, b] = stored.variants!;
    const htmlOf = async (variant: typeof a) => (await resolveVariantContent(services.db, stored, variant)).html ?? '';
    expect(await htmlOf(a)).toContain('Preview of A');
    expect(await htmlOf(a)).not.toContain('Campaign preview');
    expect(await htmlOf(b)).toContain('Campaign preview');
  });

  it('duplicate copies the variants and the test, not the progress', async () => {
    const id = await abCampaign();
    const copy = await duplicateCampaign(ctx(), { campaign_id: id });
    expect(copy).toMatchObject({
      status: 'draft',
      ab_phase: null,
      winner_variant_id: null,
      ab_test: { test_percent: 20, metric: 'opens', wait_minutes: 15 },
    });
    expect(copy.variants!.map((variant) => [variant.id, variant.subject, variant.from_name])).toEqual([
      ['a', 'Subject A {{ first_name }}', null],
      ['b', 'Subject B', 'Team B'],
    ]);
  });
  // Earlier tests leave campaigns mid-test; the steps take the oldest first, so these run until this one moves.
  async function queueTestPart(id: string) {
    for (let step = 0; step < 10 && (await row(id)).abPhase === 'testing'; step++)
      await unsafeQueueAbTestBatch(services, { batchSize: 100 });
    expect((await row(id)).abPhase).toBe('waiting');
  }
  async function queueRest(id: string) {
    for (let step = 0; step < 10 && !(await row(id)).queuedAt; step++)
      await unsafeQueueCampaignBatch(services, { batchSize: 100 });
    expect((await row(id)).queuedAt).not.toBeNull();
  }

  // The two below change memberships (unsubscribes, a complaint) and so come last: earlier tests count the audience.
  it("a variant's template is pinned when sending starts: a version published during the wait changes nothing sent", async () => {
    const template = await createTemplate(ctx(), {
      name: 'Letter',
      kind: 'campaign',
      subject: 'Template v1',
      html_content: '<p>Version one</p>',
    });
    await publishTemplate(ctx(), { template_id: template.id });
    const id = await abCampaign({ variants: [{ subject: 'Own subject' }, { template_id: template.id }] });
    expect((await row(id)).variants!.map((variant) => variant.templateVersion ?? null)).toEqual([null, 1]);
    await queueTestPart(id);

    // Edited and published during the wait: the winner's rest still gets version 1, as the test part did.
    await updateTemplate(ctx(), {
      template_id: template.id,
      subject: 'Template v2',
      html_content: '<p>Version two</p>',
    });
    await publishTemplate(ctx(), { template_id: template.id });
    await chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'b' });
    await queueRest(id);
    const sent = (await messagesOf(id)).filter((message) => message.variant === 'b');
    expect(sent.length).toBeGreaterThan(AUDIENCE / 2);
    expect(new Set(sent.map((message) => message.subject))).toEqual(new Set(['Template v1']));
    const stored = await row(id);
    expect((await resolveVariantContent(services.db, stored, stored.variants![1])).html).toContain('Version one');

    // A copy is a draft again: it sends what is published when it goes.
    const copy = await duplicateCampaign(ctx(), { campaign_id: id });
    expect((await row(copy.id)).variants!.map((variant) => variant.templateVersion ?? null)).toEqual([null, null]);
  });

  it("a variant's template deleted during the wait: the rest still gets the pinned version", async () => {
    const template = await createTemplate(ctx(), {
      name: 'Doomed letter',
      kind: 'campaign',
      subject: 'Doomed v1',
      html_content: '<p>Kept</p>',
    });
    await publishTemplate(ctx(), { template_id: template.id });
    const id = await abCampaign({ variants: [{ subject: 'Own subject' }, { template_id: template.id }] });
    await queueTestPart(id);
    await deleteTemplate(ctx(), { template_id: template.id });
    await chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'b' });
    await queueRest(id);
    const all = await messagesOf(id);
    expect(all).toHaveLength(AUDIENCE);
    expect(new Set(all.filter((message) => message.variant === 'b').map((message) => message.subject))).toEqual(
      new Set(['Doomed v1']),
    );
    expect((await row(id)).queuedAt).not.toBeNull();
  });

  it("unsubscribes and complaints count under the variant the person received: a test recipient's own, the rest's the winner's", async () => {
    const id = await abCampaign();
    await queueTestPart(id);
    await chooseCampaignVariant(ctx(), { campaign_id: id, variant_id: 'b' });
    await queueRest(id);
    const drawn = await services.db
      .select({ contactId: campaignRecipients.contactId, variant: campaignRecipients.variantId })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, id));
    const of = (variant: string | null) => drawn.filter((recipient) => recipient.variant === variant);
    const key = services.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE);
    const unsubscribe = (contactId: string) =>
      unsafeUnsubscribeRecipient(services, signUnsubscribeToken(key, id, contactId), { isEverything: false });
    await unsubscribe(of('a')[0].contactId);
    await unsubscribe(of('a')[0].contactId); // a second click counts nothing
    await unsubscribe(of('b')[0].contactId);
    await unsubscribe(of(null)[0].contactId);
    const [complainedAbout] = await services.db
      .select()
      .from(messages)
      .where(and(eq(messages.campaignId, id), eq(messages.campaignVariantId, 'a')))
      .limit(1);
    await unsafeRecordMessageComplaint(services, complainedAbout, {
      feedbackType: 'abuse',
      reporter: 'feedback.example',
      at: services.now(),
    });

    const report = await getCampaignReport(ctx(), { campaign_id: id });
    expect(report.variants.map((variant) => [variant.id, variant.unsubscribed, variant.complained])).toEqual([
      ['a', 1, 1],
      ['b', 2, 0],
    ]);
    expect(report.totals).toMatchObject({ unsubscribed: 3, complained: 1 });
  });
});
