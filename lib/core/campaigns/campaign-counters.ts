import { sql } from 'drizzle-orm';
import { SHARED_COUNTER_WRITER } from '@/lib/core/statistics/counter-writers';
import type { DbOrTx } from '@/lib/db/client';
import { campaignCounters } from '@/lib/db/schema';
import { EngagementTally } from './internal/engagement-tally';
import { KeyedCounters } from './internal/keyed-counters';
import { mailboxProviderOf } from './mailbox-provider';

export const CAMPAIGN_COUNTERS = [
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'suppressed',
  'opened',
  'clicked',
  'complained',
  'unsubscribed',
  'cancelled',
] as const;
export type CampaignCounter = (typeof CAMPAIGN_COUNTERS)[number];
export type CampaignTotals = Record<CampaignCounter, number>;
/** Every open and click, beside `opened` and `clicked` (the messages opened and clicked): the report's totals. */
export const ENGAGEMENT_TOTALS = ['total_opens', 'total_clicks'] as const;
export const HOUR_COUNTERS = ['delivered', 'opened', 'clicked'] as const;
export const LINK_COUNTERS = ['clicks', 'unique_clicks'] as const;
export const PROVIDER_COUNTERS = ['delivered', 'bounced', 'deferred', 'opened'] as const;
export const VARIANT_COUNTERS = ['recipients', ...CAMPAIGN_COUNTERS, ...ENGAGEMENT_TOTALS] as const;

/** Statuses a campaign message leaves the queue with. */
const FINAL_STATUSES = new Set<string>(['delivered', 'bounced', 'failed', 'suppressed']);
const HOUR_MS = 3_600_000;

/** `campaignVariantId`: an A/B campaign's message also counts under its variant. */
type CampaignRef = { campaignId: string | null; accountId: string; campaignVariantId?: string | null };
type CampaignMessage = CampaignRef & { mailboxProvider?: string | null; contactId?: string | null };

/**
 * Changes to campaigns' counters (totals, per hour, per link, per mailbox provider) summed in memory
 * for one batch of events, then written as one upsert per table in the same transaction as the events.
 */
export class CampaignTally {
  private readonly totals = new KeyedCounters({
    name: 'campaign_counters',
    columns: [{ name: 'campaign_id', type: 'uuid' }],
    keyLength: 1,
    counters: [...CAMPAIGN_COUNTERS, ...ENGAGEMENT_TOTALS],
  });
  private readonly hours = new KeyedCounters({
    name: 'campaign_hour_counters',
    columns: [
      { name: 'campaign_id', type: 'uuid' },
      { name: 'hour', type: 'timestamptz' },
    ],
    keyLength: 2,
    counters: HOUR_COUNTERS,
  });
  private readonly links = new KeyedCounters({
    name: 'campaign_link_counters',
    columns: [
      { name: 'campaign_id', type: 'uuid' },
      { name: 'url_hash', type: 'text' },
      { name: 'url', type: 'text' },
    ],
    keyLength: 2,
    counters: LINK_COUNTERS,
  });
  private readonly providers = new KeyedCounters({
    name: 'campaign_provider_counters',
    columns: [
      { name: 'campaign_id', type: 'uuid' },
      { name: 'provider', type: 'text' },
    ],
    keyLength: 2,
    counters: PROVIDER_COUNTERS,
  });
  // Per contact, for segments' engagement conditions: not a counter, but counted with the same events.
  private readonly engagement = new EngagementTally();

  private readonly variants = new KeyedCounters({
    name: 'campaign_variant_counters',
    columns: [
      { name: 'campaign_id', type: 'uuid' },
      { name: 'variant_id', type: 'text' },
    ],
    keyLength: 2,
    counters: VARIANT_COUNTERS,
  });

  add(campaign: CampaignRef, counter: CampaignCounter | (typeof ENGAGEMENT_TOTALS)[number], delta = 1): void {
    if (!campaign.campaignId) return;
    this.totals.add([campaign.campaignId], campaign.accountId, counter, delta);
    if (campaign.campaignVariantId)
      this.variants.add([campaign.campaignId, campaign.campaignVariantId], campaign.accountId, counter, delta);
  }

  /** Recipients an A/B campaign's variant goes to: its test share when frozen, the rest when it wins. */
  addVariantRecipients(campaign: { campaignId: string; accountId: string }, variantId: string, count: number): void {
    this.variants.add([campaign.campaignId, variantId], campaign.accountId, 'recipients', count);
  }

  private addProvider(message: CampaignMessage, counter: (typeof PROVIDER_COUNTERS)[number], delta: number): void {
    if (!message.campaignId) return;
    const provider = mailboxProviderOf({ mailboxProvider: message.mailboxProvider ?? null });
    this.providers.add([message.campaignId, provider], message.accountId, counter, delta);
  }

  private addHour(campaign: CampaignRef, at: Date, counter: (typeof HOUR_COUNTERS)[number]): void {
    if (!campaign.campaignId) return;
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();
    this.hours.add([campaign.campaignId, hour], campaign.accountId, counter, 1);
  }

  /** A delivery attempt's outcome at `at`: the message moves from `from` (queued or deferred) to `to`. */
  addTransition(message: CampaignMessage, from: string, to: string, at: Date): void {
    for (const [status, delta] of [
      [from, -1],
      [to, 1],
    ] as const) {
      if (status !== 'deferred' || from === to) continue;
      this.add(message, 'deferred', delta);
      this.addProvider(message, 'deferred', delta);
    }
    if (!FINAL_STATUSES.has(to)) return;
    this.add(message, to as CampaignCounter, 1);
    if (to === 'delivered' || to === 'bounced') this.addProvider(message, to, 1);
    if (to === 'delivered') this.addHour(message, at, 'delivered');
    if (to === 'delivered' && message.campaignId) this.engagement.add(message, 'received', at);
  }

  /** `count` messages cancelled before delivery; those that were deferred leave the deferred counts, their provider's too. */
  addCancelled(message: CampaignMessage, count: number, wasDeferred: boolean): void {
    this.add(message, 'cancelled', count);
    if (!wasDeferred) return;
    this.add(message, 'deferred', -count);
    this.addProvider(message, 'deferred', -count);
  }

  /** A bounce reported by mail after delivery: the message moves from delivered to bounced. */
  addLateBounce(message: CampaignMessage): void {
    this.add(message, 'delivered', -1);
    this.add(message, 'bounced', 1);
    this.addProvider(message, 'delivered', -1);
    this.addProvider(message, 'bounced', 1);
  }

  /**
   * An open or a click at `at`. `isFirst`: the message's first of its kind (a unique open or click);
   * a click names its URL and whether it is the message's first click of that URL.
   */
  addEngagement(
    message: CampaignMessage,
    engagement: {
      kind: 'open' | 'click';
      at: Date;
      isFirst: boolean;
      link?: { url: string; urlHash: string; isFirst: boolean };
    },
  ): void {
    const isOpen = engagement.kind === 'open';
    this.add(message, isOpen ? 'total_opens' : 'total_clicks', 1);
    if (engagement.isFirst) this.add(message, isOpen ? 'opened' : 'clicked', 1);
    if (engagement.isFirst && isOpen) this.addProvider(message, 'opened', 1);
    this.addHour(message, engagement.at, isOpen ? 'opened' : 'clicked');
    if (message.campaignId) this.engagement.add(message, isOpen ? 'opened' : 'clicked', engagement.at);
    const link = engagement.link;
    if (!message.campaignId || !link) return;
    this.links.add([message.campaignId, link.urlHash, link.url], message.accountId, 'clicks', 1);
    if (link.isFirst)
      this.links.add([message.campaignId, link.urlHash, link.url], message.accountId, 'unique_clicks', 1);
  }

  get isEmpty(): boolean {
    return [this.totals, this.hours, this.links, this.providers, this.variants, this.engagement].every(
      (table) => table.isEmpty,
    );
  }

  /** One upsert per table that changed, totals first (every writer takes the tables in this order). */
  statements(writer: number = SHARED_COUNTER_WRITER) {
    return [this.totals, this.hours, this.links, this.providers, this.variants, this.engagement]
      .map((table) => table.statement(writer))
      .filter((statement) => statement !== null);
  }

  async flush(db: DbOrTx, writer: number = SHARED_COUNTER_WRITER): Promise<void> {
    for (const statement of this.statements(writer)) await db.execute(statement);
  }
}

/** One counted change (a complaint, an unsubscribe), in the caller's transaction. */
export async function countCampaignEvent(
  db: DbOrTx,
  campaign: CampaignRef,
  changes: Partial<CampaignTotals>,
): Promise<void> {
  const tally = new CampaignTally();
  for (const [counter, delta] of Object.entries(changes)) tally.add(campaign, counter as CampaignCounter, delta);
  await tally.flush(db);
}

/** The counters of the account's campaigns, summed over their writers' rows; a campaign with none is absent. */
export async function readCampaignCounters(
  db: DbOrTx,
  accountId: string,
  campaignIds: string[],
): Promise<Map<string, CampaignTotals>> {
  const totals = new Map<string, CampaignTotals>();
  if (campaignIds.length === 0) return totals;
  const sums = sql.raw(
    CAMPAIGN_COUNTERS.map((counter) => `coalesce(sum(${counter}), 0)::int as ${counter}`).join(', '),
  );
  const result = await db.execute(sql`
    select campaign_id, ${sums} from ${campaignCounters}
    where account_id = ${accountId} and campaign_id = any(${sql.param(campaignIds)}::uuid[])
    group by campaign_id`);
  for (const row of (result as unknown as { rows: Record<string, unknown>[] }).rows) {
    totals.set(
      String(row.campaign_id),
      Object.fromEntries(CAMPAIGN_COUNTERS.map((counter) => [counter, Number(row[counter])])) as CampaignTotals,
    );
  }
  return totals;
}
