import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { acceptMessages } from '@/lib/core/messages/accept-messages';
import type { Tx } from '@/lib/db/client';
import { accounts, campaignRecipients, campaigns, contacts, domains } from '@/lib/db/schema';
import { contactSubstitutions, snapshotAudience } from './audience';
import { resolveCampaignContent } from './campaign-content';
import { campaignSendOptions, campaignStructuredContent } from './campaign-message';
import type { CampaignRow } from './present';
import { validateCampaign } from './validate-campaign';

/**
 * The campaign worker's steps. Each claims one campaign with FOR UPDATE SKIP LOCKED and does its
 * step in that transaction, so processes share the work without leases: a crash rolls the step
 * back and the campaign is claimed again. Unsafe: they take every account's campaigns, by design.
 */

export type StepResult = 'worked' | 'idle';

async function claim(tx: Tx, where: ReturnType<typeof and>): Promise<CampaignRow | null> {
  const [row] = await tx.select().from(campaigns).where(where).orderBy(asc(campaigns.updatedAt)).limit(1).for('update', { skipLocked: true });
  return row ?? null;
}

/** validating -> scheduled, or back to draft with the reasons. */
export async function unsafeValidateNextCampaign(services: Services): Promise<StepResult> {
  return services.db.transaction(async (tx) => {
    const row = await claim(tx, eq(campaigns.status, 'validating'));
    if (!row) return 'idle';
    const result = await validateCampaign(services, tx, row);
    const at = services.now();
    const isValid = result.errors.length === 0;
    await tx
      .update(campaigns)
      .set(isValid ? { status: 'scheduled', templateVersion: result.content?.templateVersion ?? null, validationErrors: [], updatedAt: at } : { status: 'draft', sendAt: null, validationErrors: result.errors, updatedAt: at })
      .where(eq(campaigns.id, row.id));
    services.logger.info({ campaignId: row.id, accountId: row.accountId, isValid, audience: result.audience }, 'campaign validated');
    return 'worked';
  });
}

/**
 * scheduled (and due) -> sending: the audience is frozen into campaign_recipients. The checks run
 * again first, since lists, domains and templates may have changed since validation.
 */
export async function unsafeStartDueCampaign(services: Services): Promise<StepResult> {
  return services.db.transaction(async (tx) => {
    const at = services.now();
    const row = await claim(tx, and(eq(campaigns.status, 'scheduled'), or(isNull(campaigns.sendAt), lte(campaigns.sendAt, at))));
    if (!row) return 'idle';
    const result = await validateCampaign(services, tx, row);
    if (result.errors.length || !result.domain) {
      await tx.update(campaigns).set({ status: 'draft', sendAt: null, validationErrors: result.errors, updatedAt: at }).where(eq(campaigns.id, row.id));
      return 'worked';
    }
    const listIds = row.listIds;
    const recipients = await snapshotAudience(tx, row.id, { accountId: row.accountId, listIds, senderDomain: result.domain.domain, at });
    await tx
      .update(campaigns)
      .set({ status: 'sending', recipientCount: recipients, templateVersion: result.content?.templateVersion ?? null, startedAt: at, updatedAt: at })
      .where(eq(campaigns.id, row.id));
    services.logger.info({ campaignId: row.id, accountId: row.accountId, recipients }, 'campaign sending started');
    return 'worked';
  });
}

/**
 * sending: queues the next `batchSize` recipients through the one acceptance path, marking them in
 * the same transaction; `sent` when nobody is left. Content is resolved again per batch (the pinned
 * template version cannot change), so a batch is self-contained.
 */
export async function unsafeQueueCampaignBatch(services: Services, batchSize: number): Promise<StepResult> {
  return services.db.transaction(async (tx) => {
    const row = await claim(tx, eq(campaigns.status, 'sending'));
    if (!row) return 'idle';
    const at = services.now();
    const selectStarted = performance.now();
    const pending = await tx
      .select({ contactId: campaignRecipients.contactId, email: campaignRecipients.email, firstName: contacts.firstName, lastName: contacts.lastName, attributes: contacts.attributes })
      .from(campaignRecipients)
      .leftJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
      .where(and(eq(campaignRecipients.campaignId, row.id), row.queuedThrough ? gt(campaignRecipients.contactId, row.queuedThrough) : undefined))
      .orderBy(asc(campaignRecipients.contactId))
      .limit(batchSize);
    const started = performance.now();
    if (pending.length) await queueBatch(services, tx, row, pending, at);
    services.logger.debug({ campaignId: row.id, queued: pending.length, selectMs: Math.round(started - selectStarted), queueMs: Math.round(performance.now() - started) }, 'campaign batch queued');
    if (pending.length < batchSize) {
      await tx.update(campaigns).set({ status: 'sent', completedAt: at, updatedAt: at }).where(eq(campaigns.id, row.id));
      services.logger.info({ campaignId: row.id, accountId: row.accountId }, 'campaign queued in full');
    }
    return 'worked';
  });
}

type Pending = { contactId: string; email: string; firstName: string | null; lastName: string | null; attributes: Record<string, unknown> | null };

async function queueBatch(services: Services, tx: Tx, row: CampaignRow, pending: Pending[], at: Date) {
  const { domain, account } = await senderOf(tx, row);
  const content = await resolveCampaignContent(tx, row);
  const messages = await acceptMessages(tx, {
    accountId: row.accountId,
    sender: { email: row.fromEmail!, domainId: domain.id, domain: domain.domain },
    subject: content.subject,
    content: { kind: 'structured', structured: campaignStructuredContent(row, content), globalSubstitutions: null, isTemplated: true },
    recipients: pending.map((recipient) => ({
      email: recipient.email,
      domain: recipient.email.slice(recipient.email.lastIndexOf('@') + 1),
      name: [recipient.firstName, recipient.lastName].filter(Boolean).join(' ') || null,
      substitutions: contactSubstitutions({ email: recipient.email, firstName: recipient.firstName, lastName: recipient.lastName, attributes: recipient.attributes }),
      contactId: recipient.contactId,
    })),
    options: { ...campaignSendOptions(row, account, at, { isSandbox: false, tags: ['campaign'] }), campaignId: row.id },
    now: at,
  });
  await tx
    .update(campaigns)
    .set({ queuedCount: sql`${campaigns.queuedCount} + ${messages.length}`, queuedThrough: pending.at(-1)!.contactId, updatedAt: at })
    .where(eq(campaigns.id, row.id));
}

/** The sender domain and account of a campaign that passed validation when it started. */
async function senderOf(tx: Tx, row: CampaignRow) {
  const name = row.fromEmail!.slice(row.fromEmail!.lastIndexOf('@') + 1);
  const [found] = await tx
    .select({ domain: domains, account: accounts })
    .from(domains)
    .innerJoin(accounts, eq(accounts.id, domains.accountId))
    .where(and(eq(domains.accountId, row.accountId), eq(domains.domain, name), isNull(domains.deletedAt)))
    .limit(1);
  if (!found) throw new Error(`campaign ${row.id}: its sender domain ${name} is gone`);
  return found;
}
