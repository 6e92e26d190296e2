import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { systemPrincipal } from '@/lib/auth/principal';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import type { Services } from '@/lib/core/context';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import type { Db } from '@/lib/db/client';
import { domains, events } from '@/lib/db/schema';

/**
 * After bounces, the domains they came from are measured: when, within the recent window (and since
 * the last unpause), at least PAUSE_MIN_VOLUME real (not sandbox) deliveries and bounces happened and
 * more than PAUSE_BOUNCE_RATE of them bounced, the domain pauses (`pause_reason: bounce_rate`).
 * Other domains keep sending. Unsafe: it takes domain ids of any account (the delivery engine's
 * outcomes), so only the engine calls it. The account's administrators are mailed with the pause.
 */
export async function unsafePauseOnBounceRate(
  services: Pick<Services, 'config' | 'logger'>,
  db: Db,
  domainIds: string[],
  now: Date,
): Promise<string[]> {
  if (domainIds.length === 0) return [];
  const { bounceRate, minVolume, windowHours } = services.config.pause;
  const windowStart = new Date(now.getTime() - windowHours * 3600_000);
  const candidates = await db
    .select({
      id: domains.id,
      accountId: domains.accountId,
      domain: domains.domain,
      since: domains.pauseWindowStartedAt,
    })
    .from(domains)
    .where(and(inArray(domains.id, domainIds), eq(domains.isPaused, false), isNull(domains.deletedAt)));
  const paused: string[] = [];
  for (const domain of candidates) {
    const since = domain.since && domain.since > windowStart ? domain.since : windowStart;
    const [counts] = await db
      .select({
        bounced: sql<number>`count(*) filter (where ${events.type} = 'message.bounced')::int`,
        total: sql<number>`count(*) filter (where ${events.type} in ('message.bounced', 'message.delivered'))::int`,
      })
      .from(events)
      .where(
        and(
          eq(events.domainId, domain.id),
          gt(events.createdAt, since),
          inArray(events.type, ['message.bounced', 'message.delivered']),
          eq(events.isSandbox, false),
        ),
      );
    if (counts.total < minVolume || counts.bounced / counts.total <= bounceRate) continue;
    const isPaused = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(domains)
        .set({ isPaused: true, pausedAt: now, pauseReason: 'bounce_rate', updatedAt: now })
        .where(and(eq(domains.id, domain.id), eq(domains.isPaused, false)))
        .returning({ id: domains.id });
      // Another worker may have paused it first: only the one that did records it and tells people.
      if (!row) return false;
      await recordAuditEvent(
        tx,
        { principal: systemPrincipal(domain.accountId) },
        { action: 'domain.pause', resource: { type: 'domain', id: domain.domain }, changes: ['is_paused'] },
      );
      await notifyPeople({ ...services, now: () => now }, tx, {
        kind: 'domain_paused',
        accountId: domain.accountId,
        resource: { id: domain.id, name: domain.domain },
        detail: `${counts.bounced} of the last ${counts.total} messages bounced`,
      });
      return true;
    });
    if (!isPaused) continue;
    services.logger.warn(
      { domain: domain.domain, bounced: counts.bounced, total: counts.total },
      'domain paused: bounce rate over the limit',
    );
    paused.push(domain.id);
  }
  return paused;
}
