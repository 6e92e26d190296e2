import { defineVerb } from '@/lib/core/verb';
import { sumRollups } from '@/lib/core/statistics/internal/sum-rollups';
import { rollupRanges } from '@/lib/core/statistics/internal/time-window';
import { getDomainInAccount } from './internal/queries';
import { summarizeDmarcReports } from '@/lib/core/domain-reports/internal/summarize-dmarc-reports';
import {
  dmarcAlignmentItem,
  CHECKLIST_COUNTERS,
  CHECKLIST_WINDOW_DAYS,
  MEASURED_CHECKLIST,
  type ChecklistCounter,
} from './internal/provider-checklist-items';
import { domainPathSchema } from './schemas';

const HOUR_MS = 3_600_000;

/**
 * The measured half of the Gmail/Yahoo sender requirements for one domain, from its rollups of the
 * last 30 days (the DNS half is the domain's records). Mailstead extension.
 */
export const getDomainProviderChecklist = defineVerb({
  scope: 'domains:read',
  input: domainPathSchema,
  async run({ db, principal, now }, input) {
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    const to = new Date(Math.ceil(now().getTime() / HOUR_MS) * HOUR_MS);
    const window = { from: new Date(to.getTime() - CHECKLIST_WINDOW_DAYS * 24 * HOUR_MS), to };
    const [totals] = await sumRollups(db, {
      ranges: rollupRanges(window, 'day', now()),
      buckets: [window],
      filters: {
        accountId: principal.targetAccountId,
        senderDomains: [row.domain],
        recipientDomains: null,
        tags: null,
      },
      counters: CHECKLIST_COUNTERS,
    });
    const sums = Object.fromEntries(
      CHECKLIST_COUNTERS.map((counter) => [counter, totals?.sums[counter] ?? 0]),
    ) as Record<ChecklistCounter, number>;
    const dmarc = await summarizeDmarcReports(
      db,
      null,
      { accountId: principal.targetAccountId, domainId: row.id },
      now(),
    );
    return {
      object: 'list' as const,
      window_days: CHECKLIST_WINDOW_DAYS,
      data: [
        ...MEASURED_CHECKLIST.map((measure) => measure(sums)),
        dmarcAlignmentItem({
          isEnabled: row.reportsEnabled,
          messages: dmarc.messages,
          passShare: dmarc.dmarc_pass_share,
        }),
      ],
    };
  },
});
