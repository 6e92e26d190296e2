import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { getAccountById } from '@/lib/core/accounts/queries';
import type { Services } from '@/lib/core/context';
import { prepareAcceptance } from '@/lib/core/messages/accept-messages';
import { monthlyCreditRefusal } from '@/lib/core/messages/assert-within-monthly-credit';
import { signalMessagesQueued, whileQueueingInBulk } from '@/lib/core/messages/queue-signal';
import type { DbOrTx, Tx } from '@/lib/db/client';
import { campaignRecipients, campaigns, contacts, type CampaignValidationError } from '@/lib/db/schema';
import { contactSubstitutions, snapshotAudience } from './audience';
import { resolveCampaignContent } from './campaign-content';
import { campaignSendOptions, campaignStructuredContent } from './campaign-message';
import type { CampaignRow } from './present';
import { campaignSenderDomain } from './queries';
import { NOBODY, validateCampaign } from './validate-campaign';

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
    const result = await validateCampaign(services, tx, row, { audience: 'exists' });
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
    const result = await validateCampaign(services, tx, row, { audience: 'skip' });
    const backToDraft = (errors: CampaignValidationError[]) =>
      tx.update(campaigns).set({ status: 'draft', sendAt: null, validationErrors: errors, updatedAt: at }).where(eq(campaigns.id, row.id));
    if (result.errors.length || !result.domain) {
      await backToDraft(result.errors);
      return 'worked';
    }
    const recipients = await snapshotAudience(tx, row.id, { accountId: row.accountId, listIds: row.listIds, senderDomain: result.domain.domain, at });
    if (recipients === 0) {
      await backToDraft([{ field: 'list_ids', message: NOBODY }]);
      return 'worked';
    }
    // The whole audience must fit in what is left of the month's monthly_credit, or none of it goes.
    const capped = await monthlyCreditRefusal(tx, await getAccountById(tx, row.accountId), recipients, at);
    if (capped) {
      await tx.delete(campaignRecipients).where(eq(campaignRecipients.campaignId, row.id));
      await backToDraft([{ field: 'list_ids', message: capped }]);
      return 'worked';
    }
    await tx
      .update(campaigns)
      .set({ status: 'sending', recipientCount: recipients, templateVersion: result.content?.templateVersion ?? null, startedAt: at, updatedAt: at })
      .where(eq(campaigns.id, row.id));
    services.logger.info({ campaignId: row.id, accountId: row.accountId, recipients }, 'campaign sending started');
    return 'worked';
  });
}

/**
 * sending: queues the campaign's recipients in batches of `batchSize`, in contact id order, each
 * batch through the one acceptance path in its own transaction with the campaign's cursor
 * (`queued_through`); `sent` when nobody is left. On PostgreSQL the next batch is read and built
 * while the previous one is written (the server works on one core while Node builds rows on the
 * other). A batch commits only if the cursor is where it was built from, so two workers never
 * queue one twice.
 */
export async function unsafeQueueCampaignBatch(services: Services, options: { batchSize: number; isPipelined: boolean; maxBatches?: number }): Promise<StepResult> {
  const { batchSize, isPipelined, maxBatches = 20 } = options;
  const { db } = services;
  const [row] = await db.select().from(campaigns).where(eq(campaigns.status, 'sending')).orderBy(asc(campaigns.updatedAt)).limit(1);
  if (!row) return 'idle';
  const { domain, account } = await senderOf(db, row);
  const content = await resolveCampaignContent(db, row);
  const build = async (after: string | null) => {
    const pending = await readPending(db, row.id, after, batchSize);
    return { after, pending, prepared: pending.length ? prepareBatch(services, row, { domain, account, content }, pending) : null };
  };
  return whileQueueingInBulk(async () => {
    let batch = await build(row.queuedThrough);
    for (let done = 0; batch.prepared && done < maxBatches; done++) {
      const started = performance.now();
      const isFull = batch.pending.length === batchSize;
      const committing = commitBatch(services, row.id, batch.after, batch.pending.at(-1)!.contactId, batch.prepared);
      // The embedded database runs on this thread and takes one query at a time: building ahead would
      // gain nothing and would keep requests to the API waiting behind every batch.
      const following = isFull && isPipelined ? build(batch.pending.at(-1)!.contactId) : null;
      const isCommitted = await committing;
      services.logger.debug({ campaignId: row.id, queued: batch.pending.length, isCommitted, ms: Math.round(performance.now() - started) }, 'campaign batch');
      if (!isCommitted) {
        await following?.catch(() => {});
        return 'worked' as const;
      }
      if (!isFull) break;
      if (!following) await new Promise((resolve) => setImmediate(resolve));
      batch = await (following ?? build(batch.pending.at(-1)!.contactId));
    }
    if (!batch.prepared || batch.pending.length < batchSize) await markSent(services, row);
    return 'worked' as const;
  });
}

type Pending = { contactId: string; email: string; firstName: string | null; lastName: string | null; attributes: Record<string, unknown> | null };

function readPending(db: DbOrTx, campaignId: string, after: string | null, limit: number): Promise<Pending[]> {
  return db
    .select({ contactId: campaignRecipients.contactId, email: campaignRecipients.email, firstName: contacts.firstName, lastName: contacts.lastName, attributes: contacts.attributes })
    .from(campaignRecipients)
    .leftJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .where(and(eq(campaignRecipients.campaignId, campaignId), after ? gt(campaignRecipients.contactId, after) : undefined))
    .orderBy(asc(campaignRecipients.contactId))
    .limit(limit);
}

type Sending = Awaited<ReturnType<typeof senderOf>> & { content: Awaited<ReturnType<typeof resolveCampaignContent>> };

function prepareBatch(services: Services, row: CampaignRow, sending: Sending, pending: Pending[]) {
  const at = services.now();
  return prepareAcceptance({
    accountId: row.accountId,
    sender: { email: row.fromEmail!, domainId: sending.domain.id, domain: sending.domain.domain },
    subject: sending.content.subject,
    content: { kind: 'structured', structured: campaignStructuredContent(row, sending.content), globalSubstitutions: null, isTemplated: true },
    recipients: pending.map((recipient) => ({
      email: recipient.email,
      domain: recipient.email.slice(recipient.email.lastIndexOf('@') + 1),
      name: [recipient.firstName, recipient.lastName].filter(Boolean).join(' ') || null,
      substitutions: contactSubstitutions({ email: recipient.email, firstName: recipient.firstName, lastName: recipient.lastName, attributes: recipient.attributes }),
      contactId: recipient.contactId,
    })),
    options: { ...campaignSendOptions(row, sending.account, at, { isSandbox: false, tags: ['campaign'] }), campaignId: row.id },
    now: at,
  });
}

/** Writes a prepared batch if the campaign is still sending and its cursor is still `after`; false otherwise. */
async function commitBatch(services: Services, campaignId: string, after: string | null, through: string, prepared: ReturnType<typeof prepareAcceptance>): Promise<boolean> {
  const isCommitted = await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for('update', { skipLocked: true });
    if (!current || current.status !== 'sending' || current.queuedThrough !== after) return false;
    await tx.execute(prepared.statement);
    await tx
      .update(campaigns)
      .set({ queuedCount: sql`${campaigns.queuedCount} + ${prepared.rows.length}`, queuedThrough: through, updatedAt: services.now() })
      .where(eq(campaigns.id, campaignId));
    return true;
  });
  if (isCommitted) signalMessagesQueued();
  return isCommitted;
}

/** sending -> sent, once nobody is left after the cursor. */
async function markSent(services: Services, row: CampaignRow) {
  await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, row.id)).for('update', { skipLocked: true });
    if (!current || current.status !== 'sending') return;
    const [left] = await readPending(tx, row.id, current.queuedThrough, 1);
    if (left) return;
    const at = services.now();
    await tx.update(campaigns).set({ status: 'sent', completedAt: at, updatedAt: at }).where(eq(campaigns.id, row.id));
    services.logger.info({ campaignId: row.id, accountId: row.accountId, queued: current.queuedCount }, 'campaign queued in full');
  });
}

/** The sender domain and account of a campaign that passed validation when it started. */
async function senderOf(db: DbOrTx, row: CampaignRow) {
  const found = await campaignSenderDomain(db, row);
  if (!found?.domain) throw new Error(`campaign ${row.id}: its sender domain ${found?.name ?? '(none)'} is gone`);
  return { domain: found.domain, account: found.account! };
}
