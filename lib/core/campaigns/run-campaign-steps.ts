import { and, asc, eq, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { getAccountById } from '@/lib/core/accounts/queries';
import type { Services } from '@/lib/core/context';
import { acceptSelectedMessages } from '@/lib/core/messages/internal/accept-selected-messages';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import { monthlyCreditRefusal, notifyCapReached } from '@/lib/core/messages/internal/assert-within-monthly-credit';
import { signalWork, whileQueueingInBulk } from '@/lib/core/shared/work-signal';
import type { DbOrTx, Tx } from '@/lib/db/client';
import {
  campaignCounters,
  campaignRecipients,
  campaigns,
  contacts,
  type CampaignValidationError,
} from '@/lib/db/schema';
import { contactDisplayNameSql, contactSubstitutionsSql, snapshotAudienceChunk } from './internal/audience';
import { resolveCampaignContent } from './campaign-content';
import { campaignSendOptions, campaignStructuredContent } from './internal/campaign-message';
import type { CampaignRow } from './internal/present';
import { campaignSenderDomain } from './internal/queries';
import { NOBODY, validateCampaign } from './internal/validate-campaign';
import {
  campaignAsVariant,
  isAbCampaign,
  pinVariantTemplates,
  resolveVariantContent,
  variantOf,
} from './internal/ab-test';
import { splitAbAudience } from './run-ab-test-steps';

/**
 * The campaign worker's steps. Each claims one campaign with FOR UPDATE SKIP LOCKED and does its
 * step in that transaction, so processes share the work without leases: a crash rolls the step
 * back and the campaign is claimed again. Unsafe: they take every account's campaigns, by design.
 */

export type StepResult = 'worked' | 'idle';

async function claim(tx: Tx, where: ReturnType<typeof and>): Promise<CampaignRow | null> {
  const [row] = await tx
    .select()
    .from(campaigns)
    .where(where)
    .orderBy(asc(campaigns.updatedAt))
    .limit(1)
    .for('update', { skipLocked: true });
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
    // A snapshot left part-way (the campaign unscheduled or edited meanwhile) starts again from the first contact.
    if (isValid) await tx.delete(campaignRecipients).where(eq(campaignRecipients.campaignId, row.id));
    await tx
      .update(campaigns)
      .set(
        isValid
          ? {
              status: 'scheduled',
              templateVersion: result.content?.templateVersion ?? null,
              snapshotThrough: null,
              validationErrors: [],
              updatedAt: at,
            }
          : { status: 'draft', sendAt: null, validationErrors: result.errors, updatedAt: at },
      )
      .where(eq(campaigns.id, row.id));
    services.logger.info(
      { campaignId: row.id, accountId: row.accountId, isValid, audience: result.audience },
      'campaign validated',
    );
    return 'worked';
  });
}

/**
 * scheduled (and due) -> sending: the audience is frozen into campaign_recipients, `snapshotChunk`
 * contacts per call, each part in its own transaction with the campaign's cursor (on PGlite one
 * statement for the whole audience held the only connection for a second). The checks run again
 * at each part, since lists, domains and templates may have changed since validation; the last
 * part counts the audience, checks the monthly credit and the A/B split, and starts sending.
 */
export async function unsafeStartDueCampaign(
  services: Services,
  options: { snapshotChunk: number } = { snapshotChunk: DEFAULT_SNAPSHOT_CHUNK },
): Promise<StepResult> {
  return services.db.transaction(async (tx) => {
    const at = services.now();
    const claimed = await claim(
      tx,
      and(eq(campaigns.status, 'scheduled'), or(isNull(campaigns.sendAt), lte(campaigns.sendAt, at))),
    );
    if (!claimed) return 'idle';
    // Variants' templates are pinned before the checks, so what they render is what goes out.
    const row = { ...claimed, variants: await pinVariantTemplates(tx, claimed) };
    const result = await validateCampaign(services, tx, row, { audience: 'skip' });
    const backToDraft = async (errors: CampaignValidationError[]) => {
      await tx.delete(campaignRecipients).where(eq(campaignRecipients.campaignId, row.id));
      await tx
        .update(campaigns)
        .set({ status: 'draft', sendAt: null, snapshotThrough: null, validationErrors: errors, updatedAt: at })
        .where(eq(campaigns.id, row.id));
    };
    if (result.errors.length || !result.domain) {
      await backToDraft(result.errors);
      return 'worked';
    }
    const part = await snapshotAudienceChunk(
      tx,
      row.id,
      {
        accountId: row.accountId,
        listIds: row.listIds,
        segmentIds: row.segmentIds,
        excludeListIds: row.excludeListIds,
        excludeSegmentIds: row.excludeSegmentIds,
        senderDomain: result.domain.domain,
        at,
      },
      { after: row.snapshotThrough, chunk: options.snapshotChunk },
    );
    if (!part.isDone) {
      await tx.update(campaigns).set({ snapshotThrough: part.through, updatedAt: at }).where(eq(campaigns.id, row.id));
      return 'worked';
    }
    const recipients = await countRecipients(tx, row.id);
    if (recipients === 0) {
      await backToDraft([{ field: 'list_ids', message: NOBODY }]);
      return 'worked';
    }
    // The whole audience must fit in what is left of the month's monthly_credit, or none of it goes.
    const account = await getAccountById(tx, row.accountId);
    const capped = await monthlyCreditRefusal(tx, account, recipients, at);
    if (capped) {
      await notifyCapReached(services, tx, account, capped);
      await backToDraft([{ field: 'list_ids', message: capped }]);
      return 'worked';
    }
    const tooSmall = await splitAbAudience(tx, row, recipients);
    if (tooSmall) {
      await backToDraft([tooSmall]);
      return 'worked';
    }
    await tx
      .update(campaigns)
      .set({
        status: 'sending',
        recipientCount: recipients,
        templateVersion: result.content?.templateVersion ?? null,
        snapshotThrough: null,
        startedAt: at,
        ...(isAbCampaign(row) ? { abPhase: 'testing', variants: row.variants } : {}),
        updatedAt: at,
      })
      .where(eq(campaigns.id, row.id));
    services.logger.info({ campaignId: row.id, accountId: row.accountId, recipients }, 'campaign sending started');
    return 'worked';
  });
}

/** Contacts frozen per part of a snapshot when the caller does not say (the worker's settings do). */
const DEFAULT_SNAPSHOT_CHUNK = 100_000;

async function countRecipients(tx: Tx, campaignId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));
  return Number(row?.n ?? 0);
}

/**
 * sending: queues the campaign's recipients in batches of `batchSize`, in contact id order, each
 * batch in its own transaction that moves the campaign's cursor (`queued_through`) with it. The
 * database builds the rows from the frozen audience (acceptSelectedMessages): nothing per recipient
 * passes through Node. The campaign row is locked for the batch, so two workers never queue one
 * twice, and a crash rolls back the batch with its cursor. Fully queued once a batch comes up short.
 */
export async function unsafeQueueCampaignBatch(
  services: Services,
  options: { batchSize: number; maxBatches?: number },
): Promise<StepResult> {
  const { batchSize, maxBatches = 20 } = options;
  const { db } = services;
  const [found] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.status, 'sending'), isNull(campaigns.queuedAt), NOT_AB_TESTING))
    .orderBy(asc(campaigns.updatedAt))
    .limit(1);
  if (!found) return 'idle';
  // An A/B campaign's rest goes out as its winner (run-ab-test-steps.ts queues the test part).
  const winner = variantOf(found, found.winnerVariantId);
  const row = winner ? campaignAsVariant(found, winner) : found;
  const { domain, account } = await senderOf(db, row);
  // Pinned at validation: a template deleted while the campaign sends does not stop it half-way.
  const content = winner
    ? await resolveVariantContent(db, found, winner, { isSending: true })
    : await resolveCampaignContent(db, row, { isSending: true });
  // The audience was just frozen: without statistics on it the planner reads every remaining
  // recipient for each batch's page (measured: 100,000 recipients, 450-670 ms a batch instead of ~60).
  if (!row.queuedThrough) await db.execute(sql`analyze ${campaignRecipients}`);
  return whileQueueingInBulk(async () => {
    for (let done = 0; done < maxBatches; done++) {
      const started = performance.now();
      const outcome = await queueBatch(services, row, { domain, account, content }, batchSize);
      services.logger.debug(
        { campaignId: row.id, ...outcome, ms: Math.round(performance.now() - started) },
        'campaign batch',
      );
      if (outcome.queued > 0) signalWork('messages');
      if (!outcome.hasMore) break;
      // Between batches, what else waits on this thread (API requests, on PGlite the database) runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return 'worked' as const;
  });
}

/**
 * sending -> sent, once the whole audience is queued and every message has an outcome (delivered,
 * bounced, failed or suppressed): read from the campaign's counters, never by scanning its messages.
 */
export async function unsafeCompleteDrainedCampaigns(services: Services): Promise<StepResult> {
  const at = services.now();
  // One statement per poll, however many campaigns wait for retries: nothing deferred, and at least as
  // many outcomes as queued messages (waiting = queued - settled - deferred, as countCampaigns says).
  const drained = sql`(select coalesce(sum(k.deferred), 0) = 0 and coalesce(sum(k.delivered + k.bounced + k.failed + k.suppressed), 0) >= campaigns.queued_count
    from ${campaignCounters} k where k.account_id = campaigns.account_id and k.campaign_id = campaigns.id)`;
  // The finished campaigns' administrators are mailed in the same transaction as the status change.
  const done = await services.db.transaction(async (tx) => {
    const rows = await tx
      .update(campaigns)
      .set({ status: 'sent', completedAt: at, updatedAt: at })
      .where(
        and(
          eq(campaigns.status, 'sending'),
          isNotNull(campaigns.queuedAt),
          isNotNull(campaigns.recipientCount),
          drained,
        ),
      )
      .returning({
        id: campaigns.id,
        accountId: campaigns.accountId,
        name: campaigns.name,
        queued: campaigns.queuedCount,
      });
    for (const row of rows)
      await notifyPeople(services, tx, {
        kind: 'campaign_finished',
        accountId: row.accountId,
        resource: { id: row.id, name: row.name },
        detail: `${row.queued} messages queued, each now delivered, bounced, failed or suppressed`,
      });
    return rows;
  });
  for (const row of done)
    services.logger.info(
      { campaignId: row.id, accountId: row.accountId, queued: row.queued },
      'campaign sent: every message has an outcome',
    );
  return done.length > 0 ? 'worked' : 'idle';
}

/** Plain campaigns, and A/B campaigns once their winner is chosen: what this step queues. */
const NOT_AB_TESTING = or(isNull(campaigns.abPhase), eq(campaigns.abPhase, 'winner_sent'));
const isAbRest = (row: CampaignRow) => row.abPhase === null || row.abPhase === 'winner_sent';

type Sending = Awaited<ReturnType<typeof senderOf>> & { content: Awaited<ReturnType<typeof resolveCampaignContent>> };

/** One batch after the campaign's cursor, in one transaction with the cursor; `queued_at` when it comes up short. */
async function queueBatch(
  services: Services,
  row: CampaignRow,
  sending: Sending,
  batchSize: number,
): Promise<{ queued: number; hasMore: boolean }> {
  return services.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(campaigns)
      .where(eq(campaigns.id, row.id))
      .for('update', { skipLocked: true });
    if (!current || current.status !== 'sending' || current.queuedAt || !isAbRest(current))
      return { queued: 0, hasMore: false };
    const at = services.now();
    const { queued, through } = await acceptSelectedMessages(
      tx,
      {
        accountId: row.accountId,
        sender: { email: row.fromEmail!, domainId: sending.domain.id, domain: sending.domain.domain },
        subject: sending.content.subject,
        content: {
          kind: 'structured',
          structured: campaignStructuredContent(row, sending.content),
          globalSubstitutions: null,
          isTemplated: true,
        },
        options: {
          ...campaignSendOptions(row, sending.account, at, { isSandbox: false, tags: ['campaign'] }),
          campaignId: row.id,
          campaignVariantId: current.winnerVariantId,
        },
        now: at,
      },
      audienceAfter(row.id, current.queuedThrough, batchSize),
    );
    const isDone = queued < batchSize;
    // Stamped once the last recipients are written (not when the batch began), so that queued_at
    // is when the whole audience was queued whether the last batch was full, partial or empty.
    const queuedAt = isDone ? services.now() : null;
    await tx
      .update(campaigns)
      .set({
        queuedCount: sql`${campaigns.queuedCount} + ${queued}`,
        queuedThrough: through ?? current.queuedThrough,
        ...(queuedAt ? { queuedAt } : {}),
        updatedAt: at,
      })
      .where(eq(campaigns.id, row.id));
    if (isDone)
      services.logger.info(
        { campaignId: row.id, accountId: row.accountId, queued: current.queuedCount + queued },
        'campaign queued in full',
      );
    return { queued, hasMore: !isDone };
  });
}

/**
 * The next recipients of the frozen audience after `after` (of an A/B campaign, the rest: those
 * without a variant), with what their messages are rendered with. The page is cut before the join,
 * and each contact is one index lookup (the `limit 1` keeps the planner from turning it into a join
 * over every contact of the account).
 */
function audienceAfter(campaignId: string, after: string | null, limit: number): SQL {
  return sql`
    select r.contact_id, r.email, ${contactDisplayNameSql} as name, ${contactSubstitutionsSql} as substitutions
    from (
      select contact_id, email from ${campaignRecipients}
      where campaign_id = ${campaignId}::uuid and variant_id is null ${after ? sql`and contact_id > ${after}::uuid` : sql``}
      order by contact_id
      limit ${limit}
    ) r
    left join lateral (select first_name, last_name, attributes from ${contacts} where ${contacts.id} = r.contact_id limit 1) c on true
    order by r.contact_id`;
}

/** The sender domain and account of a campaign that passed validation when it started. */
async function senderOf(db: DbOrTx, row: CampaignRow) {
  const found = await campaignSenderDomain(db, row);
  if (!found?.domain) throw new Error(`campaign ${row.id}: its sender domain ${found?.name ?? '(none)'} is gone`);
  return { domain: found.domain, account: found.account! };
}
