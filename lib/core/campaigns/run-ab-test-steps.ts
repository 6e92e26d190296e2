import { and, asc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { acceptSelectedMessages } from '@/lib/core/messages/internal/accept-selected-messages';
import { signalWork, whileQueueingInBulk } from '@/lib/core/shared/work-signal';
import type { Tx } from '@/lib/db/client';
import { campaignRecipients, campaigns, contacts, type CampaignValidationError } from '@/lib/db/schema';
import { CampaignTally } from './campaign-counters';
import { minimumAbAudience, pickWinner, planAbSplit } from './ab-test-rules';
import { campaignAsVariant, isAbCampaign, resolveVariantContent } from './internal/ab-test';
import { readVariantCounters, settleWinner } from './internal/ab-winner';
import { contactDisplayNameSql, contactSubstitutionsSql } from './internal/audience';
import { campaignSendOptions, campaignStructuredContent } from './internal/campaign-message';
import type { CampaignRow } from './internal/present';
import { campaignSenderDomain } from './internal/queries';
import type { StepResult } from './run-campaign-steps';

/**
 * The A/B steps of the campaign worker (marketing-api.md, A/B tests), in the shape of
 * run-campaign-steps.ts: each claims its campaign with FOR UPDATE SKIP LOCKED and commits its work
 * with the phase it moves to. testing (the test part is queued, each recipient with their variant)
 * -> waiting (until ab_wait_until, or a hand choice) -> winner_sent (the rest goes out through the
 * plain queue step with the winner's content). Unsafe: they take every account's campaigns, by design.
 */

/**
 * Draws the test part of a just-frozen audience, in the snapshot's transaction: `test` recipients
 * in random order, dealt round-robin to the variants, so the split is even and, once committed,
 * fixed. Returns the reason to refuse when the audience is too small for the test.
 */
export async function splitAbAudience(
  tx: Tx,
  row: CampaignRow,
  recipients: number,
): Promise<CampaignValidationError | null> {
  if (!isAbCampaign(row)) return null;
  const ids = row.variants.map((variant) => variant.id);
  const split = planAbSplit(recipients, row.abTest.testPercent, ids.length);
  if (!split)
    return {
      field: 'ab_test',
      message: `an A/B test of ${ids.length} variants needs at least ${minimumAbAudience(ids.length)} recipients (one per variant and one for the winner); the audience has ${recipients}`,
    };
  await tx.execute(sql`
    with picked as (
      select contact_id, row_number() over (order by random()) - 1 as n
      from ${campaignRecipients} where campaign_id = ${row.id}::uuid
    )
    update ${campaignRecipients} r set variant_id = (${sql.param(ids)}::text[])[(p.n % ${ids.length}) + 1]
    from picked p
    where r.campaign_id = ${row.id}::uuid and r.contact_id = p.contact_id and p.n < ${split.test}`);
  const tally = new CampaignTally();
  ids.forEach((id, index) =>
    tally.addVariantRecipients({ campaignId: row.id, accountId: row.accountId }, id, split.perVariant[index]),
  );
  await tally.flush(tx);
  return null;
}

/**
 * testing: queues the test part in contact id order, a batch per transaction that moves the cursor
 * with it; each variant's recipients of the batch are one acceptance with that variant's content.
 * The batch that comes up short moves the campaign to waiting, with when the wait ends.
 */
export async function unsafeQueueAbTestBatch(
  services: Services,
  options: { batchSize: number; maxBatches?: number },
): Promise<StepResult> {
  const { batchSize, maxBatches = 20 } = options;
  const [row] = await services.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.status, 'sending'), eq(campaigns.abPhase, 'testing')))
    .orderBy(asc(campaigns.updatedAt))
    .limit(1);
  if (!row || !isAbCampaign(row)) return 'idle';
  const found = await campaignSenderDomain(services.db, row);
  if (!found?.domain || !found.account) throw new Error(`campaign ${row.id}: its sender domain is gone`);
  const sending = { domain: found.domain, account: found.account };
  const contents = await Promise.all(
    row.variants.map(async (variant) => ({
      variant,
      content: await resolveVariantContent(services.db, row, variant, { isSending: true }),
    })),
  );
  return whileQueueingInBulk(async () => {
    for (let done = 0; done < maxBatches; done++) {
      const hasMore = await services.db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(campaigns)
          .where(eq(campaigns.id, row.id))
          .for('update', { skipLocked: true });
        if (!current || current.status !== 'sending' || current.abPhase !== 'testing') return false;
        const at = services.now();
        const page = await testPage(tx, row.id, current.queuedThrough, batchSize);
        let queued = 0;
        for (const { variant, content } of contents) {
          if (!page.variants.has(variant.id) || !page.through) continue;
          const asVariant = campaignAsVariant(row, variant);
          const result = await acceptSelectedMessages(
            tx,
            {
              accountId: row.accountId,
              sender: { email: row.fromEmail!, domainId: sending.domain.id, domain: sending.domain.domain },
              subject: content.subject,
              content: {
                kind: 'structured',
                structured: campaignStructuredContent(asVariant, content),
                globalSubstitutions: null,
                isTemplated: true,
              },
              options: {
                ...campaignSendOptions(row, sending.account, at, { isSandbox: false, tags: ['campaign'] }),
                campaignId: row.id,
                campaignVariantId: variant.id,
              },
              now: at,
            },
            testAudience(row.id, variant.id, current.queuedThrough, page.through),
          );
          queued += result.queued;
        }
        const isDone = page.count < batchSize;
        const doneAt = services.now();
        await tx
          .update(campaigns)
          .set({
            queuedCount: sql`${campaigns.queuedCount} + ${queued}`,
            // The rest is walked from the start once the winner is known.
            queuedThrough: isDone ? null : page.through,
            ...(isDone
              ? {
                  abPhase: 'waiting',
                  testQueuedAt: doneAt,
                  abWaitUntil: new Date(doneAt.getTime() + row.abTest.waitMinutes * 60_000),
                }
              : {}),
            updatedAt: at,
          })
          .where(eq(campaigns.id, row.id));
        if (queued > 0) signalWork('messages');
        if (isDone)
          services.logger.info(
            { campaignId: row.id, accountId: row.accountId, queued: current.queuedCount + queued },
            'A/B test part queued; waiting for the winner',
          );
        return !isDone;
      });
      if (!hasMore) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return 'worked' as const;
  });
}

/** waiting (and due) -> winner_sent: the winner by the metric, durable with the phase. */
export async function unsafeChooseDueWinner(services: Services): Promise<StepResult> {
  return services.db.transaction(async (tx) => {
    const at = services.now();
    const [row] = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.status, 'sending'), eq(campaigns.abPhase, 'waiting'), lte(campaigns.abWaitUntil, at)))
      .orderBy(asc(campaigns.updatedAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row || !isAbCampaign(row)) return 'idle';
    const counters = await readVariantCounters(tx, row);
    const results = row.variants
      .map((variant) => ({ id: variant.id, ...counters.get(variant.id) }))
      .map((found) => ({
        id: found.id,
        delivered: found.delivered ?? 0,
        opened: found.opened ?? 0,
        clicked: found.clicked ?? 0,
      }));
    const winner = pickWinner(row.variants, results, row.abTest.metric);
    await settleWinner(tx, row, winner, at);
    services.logger.info({ campaignId: row.id, accountId: row.accountId, winner, results }, 'A/B winner chosen');
    return 'worked';
  });
}

/** The next `limit` test recipients after the cursor: how many, the last one, and which variants they hold. */
async function testPage(tx: Tx, campaignId: string, after: string | null, limit: number) {
  const result = await tx.execute(sql`
    select variant_id, count(*)::int as n, max(contact_id::text) as through from (
      select contact_id, variant_id from ${campaignRecipients}
      where campaign_id = ${campaignId}::uuid and variant_id is not null ${after ? sql`and contact_id > ${after}::uuid` : sql``}
      order by contact_id limit ${limit}
    ) page group by variant_id`);
  const rows = (result as unknown as { rows: { variant_id: string; n: number; through: string }[] }).rows;
  const through = rows.reduce<string | null>(
    (max, row) => (max === null || row.through > max ? row.through : max),
    null,
  );
  return {
    count: rows.reduce((sum, row) => sum + Number(row.n), 0),
    through,
    variants: new Set(rows.map((row) => row.variant_id)),
  };
}

/** One variant's test recipients in (after, through], with what their messages are rendered with. */
function testAudience(campaignId: string, variantId: string, after: string | null, through: string): SQL {
  return sql`
    select r.contact_id, r.email, ${contactDisplayNameSql} as name, ${contactSubstitutionsSql} as substitutions
    from (
      select contact_id, email from ${campaignRecipients}
      where campaign_id = ${campaignId}::uuid and variant_id = ${variantId}
        ${after ? sql`and contact_id > ${after}::uuid` : sql``} and contact_id <= ${through}::uuid
      order by contact_id
    ) r
    left join lateral (select first_name, last_name, attributes from ${contacts} where ${contacts.id} = r.contact_id limit 1) c on true
    order by r.contact_id`;
}
