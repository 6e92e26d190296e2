import { and, eq, gt, gte, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import { hourOf } from '@/lib/core/statistics/rollup';
import { defineVerb } from '@/lib/core/verb';
import { invalidInput } from '@/lib/shared/errors';
import { domains, statsHourly } from '@/lib/db/schema';
import { accountOverviewQuerySchema } from './schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DAYS = 7;

type Figures = {
  sent: number;
  delivered: number;
  bounced: number;
  deferred: number;
  failed: number;
  suppressed: number;
};
const noFigures = (): Figures => ({ sent: 0, delivered: 0, bounced: 0, deferred: 0, failed: 0, suppressed: 0 });
const add = (into: Figures, from: Figures) => {
  for (const key of Object.keys(into) as (keyof Figures)[]) into[key] += from[key];
};

/**
 * The dashboard's Overview: today's and the last seven days' sending figures, read from the hourly
 * statistics rollups (never by scanning messages), so it needs the statistics scope; a key limited to
 * some domains sees those domains' figures. Days start at the viewer's midnight, to the hour.
 */
export const getAccountOverview = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: accountOverviewQuerySchema,
  async run({ db, principal, now, config }, input) {
    const accountId = principal.targetAccountId;
    const at = now();
    const todayFrom = hourOf(
      input.today_from ? new Date(input.today_from) : new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS),
    );
    if (todayFrom.getTime() > at.getTime() || at.getTime() - todayFrom.getTime() > 2 * DAY_MS) {
      throw invalidInput('today_from: must be within the last 48 hours', 'today_from');
    }
    const weekFrom = new Date(todayFrom.getTime() - (DAYS - 1) * DAY_MS);

    const accountDomains = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)));
    const visible = authorizedDomains(
      principal,
      'statistics-transactional:read:{domain}',
      accountDomains.map((row) => row.domain),
    );
    const ofVisibleDomains: SQL | undefined =
      visible === 'all' ? undefined : visible.length ? inArray(statsHourly.senderDomain, visible) : sql`false`;

    const total = (column: SQLWrapper) => sql<number>`coalesce(sum(${column}), 0)::int`.mapWith(Number);
    const hours = await db
      .select({
        hour: statsHourly.hour,
        sent: total(statsHourly.reception),
        delivered: total(statsHourly.delivered),
        bounced: total(statsHourly.bounced),
        deferred: total(statsHourly.deferred),
        failed: total(statsHourly.failed),
        suppressed: total(statsHourly.suppressed),
      })
      .from(statsHourly)
      .where(and(eq(statsHourly.accountId, accountId), gte(statsHourly.hour, weekFrom), ofVisibleDomains))
      .groupBy(statsHourly.hour);
    const [anySent] = await db
      .select({ hour: statsHourly.hour })
      .from(statsHourly)
      .where(and(eq(statsHourly.accountId, accountId), gt(statsHourly.reception, 0), ofVisibleDomains))
      .limit(1);

    const days = Array.from({ length: DAYS }, (_, index) => ({
      from: new Date(weekFrom.getTime() + index * DAY_MS),
      figures: noFigures(),
    }));
    for (const { hour, ...figures } of hours) {
      const index = Math.floor((hour.getTime() - weekFrom.getTime()) / DAY_MS);
      if (index >= 0 && index < DAYS) add(days[index].figures, figures);
    }
    const week = noFigures();
    for (const day of days) add(week, day.figures);

    return {
      object: 'account_overview' as const,
      generated_at: at.toISOString(),
      has_sent_message: anySent !== undefined,
      // For the first request the page offers to copy: curl must be told to trust this certificate.
      self_signed_certificate_file: config.selfSignedCertFile ?? null,
      today: { from: todayFrom.toISOString(), ...days[DAYS - 1].figures },
      last_7_days: { from: weekFrom.toISOString(), ...week },
      days: days.map((day) => ({ from: day.from.toISOString(), ...day.figures })),
    };
  },
});

export type AccountOverview = Awaited<ReturnType<typeof getAccountOverview>>;
