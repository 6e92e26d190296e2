import { and, gt, inArray } from 'drizzle-orm';
import { MAILBOX_PROVIDERS } from '@/lib/core/providers/classify-mailbox-provider';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { providerPacing, workers } from '@/lib/db/schema';
import type { ProviderPacingView } from './schemas';

/**
 * A provider's rate limit, summed over the processes: each spaced one sends at most 60 s / its
 * spacing a minute; one that is not spaced has no rate limit, and then neither has the sum.
 */
function messagesPerMinute(rows: { spacingMs: number }[]): number | null {
  if (rows.length === 0 || rows.some((row) => row.spacingMs <= 0)) return null;
  return Math.round(rows.reduce((sum, row) => sum + 60_000 / row.spacingMs, 0) * 10) / 10;
}

// Slowed rows are rewritten every 15 s by a running process (lib/mail/provider-pacing.ts); older
// ones, and those of processes found dead (gone from `workers`), say nothing of now.
const CURRENT_WITHIN_MS = 60_000;

/**
 * How fast Mailstead sends to each mailbox provider now: the named providers always, other
 * destinations (summed, unnamed) while any is slowed. Pacing belongs to the server's connections,
 * not to an account, so every account that may read statistics sees the same.
 */
export const getProviderPacing = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: z.object({}),
  async run({ db, config, now }) {
    const rows = await db
      .select()
      .from(providerPacing)
      .where(
        and(
          gt(providerPacing.updatedAt, new Date(now().getTime() - CURRENT_WITHIN_MS)),
          inArray(providerPacing.workerId, db.select({ id: workers.id }).from(workers)),
        ),
      );
    // Other destinations are other tenants' recipient domains: they are summed as one "other" row,
    // never named, so that no account learns where another one sends.
    const byKey = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = row.key.startsWith('domain:') ? 'other' : row.key;
      byKey.set(key, [...(byKey.get(key) ?? []), row]);
    }
    const normal = config.delivery.connections;
    const named = MAILBOX_PROVIDERS.filter((provider) => provider !== 'other');
    const keys = [...named, ...[...byKey.keys()].filter((key) => !(named as string[]).includes(key)).sort()];
    const data = keys.flatMap((key): ProviderPacingView[] => {
      const current = byKey.get(key) ?? [];
      const slowed = current.filter((row) => row.slowedSince);
      if (!(named as string[]).includes(key) && slowed.length === 0) return [];
      const earliest = (dates: (Date | null)[], pick: 'min' | 'max') => {
        const times = dates.flatMap((date) => (date ? [date.getTime()] : []));
        return times.length ? new Date(pick === 'min' ? Math.min(...times) : Math.max(...times)).toISOString() : null;
      };
      return [
        {
          object: 'provider_pacing',
          provider: key as ProviderPacingView['provider'],
          destination: null,
          state: slowed.length ? 'slowed' : 'normal',
          slowed_since: earliest(
            slowed.map((row) => row.slowedSince),
            'min',
          ),
          connections: current.length ? current.reduce((sum, row) => sum + row.concurrency, 0) : normal,
          normal_connections: current.length ? current.reduce((sum, row) => sum + row.normalConcurrency, 0) : normal,
          messages_per_minute: messagesPerMinute(current),
          throttled_replies: current.reduce((sum, row) => sum + row.throttledReplies, 0),
          last_throttled_at: earliest(
            current.map((row) => row.lastThrottledAt),
            'max',
          ),
        },
      ];
    });
    return { object: 'list' as const, data };
  },
});
