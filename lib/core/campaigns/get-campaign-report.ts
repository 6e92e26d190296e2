import { defineVerb } from '@/lib/core/verb';
import { readReportCounters } from './internal/report-counters';
import { reportVariants } from './internal/report-variants';
import { countCampaign, getCampaignInAccount, NO_COUNTS } from './internal/queries';
import { campaignPathSchema } from './schemas';

const HOUR_MS = 3_600_000;
/** While a campaign is young the timeline runs to now; past a fortnight, to its last counted hour. */
const LIVE_TIMELINE_HOURS = 14 * 24;

/**
 * The campaign report (marketing-api.md, Campaign lifecycle, continued): totals, an hourly
 * timeline, links, mailbox providers and an A/B campaign's variants, read from the counters kept as events happen
 * (campaign-counters.ts), never from the campaign's messages: its time does not grow with the audience.
 */
export const getCampaignReport = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal, now }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const [counts, counters, variants] = await Promise.all([
      countCampaign(db, row),
      readReportCounters(db, row),
      reportVariants(db, row),
    ]);
    const found = counts ?? NO_COUNTS;
    return {
      object: 'campaign_report' as const,
      campaign_id: row.id,
      totals: {
        recipients: found.recipients,
        delivered: found.delivered,
        deferred: found.deferred,
        bounced: found.bounced,
        failed: found.failed,
        cancelled: found.cancelled,
        opened: counters.engagement.total_opens,
        unique_opened: found.opened,
        clicked: counters.engagement.total_clicks,
        unique_clicked: found.clicked,
        unsubscribed: found.unsubscribed,
        complained: found.complained,
      },
      timeline: row.startedAt ? denseTimeline(row.startedAt, counters.hours, now()) : [],
      links: counters.links,
      providers: counters.providers,
      variants,
    };
  },
});

type Hour = { at: Date; delivered: number; opened: number; clicked: number };

/** Every hour from the one sending started in to the later of the last counted and now (capped). */
function denseTimeline(started: Date, hours: Hour[], at: Date) {
  const first = Math.floor(started.getTime() / HOUR_MS) * HOUR_MS;
  const live = Math.min(at.getTime(), first + LIVE_TIMELINE_HOURS * HOUR_MS);
  const last = Math.max(first, Math.floor(live / HOUR_MS) * HOUR_MS, ...hours.map((hour) => hour.at.getTime()));
  const byHour = new Map(hours.map((hour) => [hour.at.getTime(), hour]));
  const points = [];
  for (let time = first; time <= last; time += HOUR_MS) {
    const hour = byHour.get(time);
    points.push({
      at: new Date(time).toISOString(),
      delivered: hour?.delivered ?? 0,
      opened: hour?.opened ?? 0,
      clicked: hour?.clicked ?? 0,
    });
  }
  return points;
}

export type CampaignReport = Awaited<ReturnType<typeof getCampaignReport>>;
