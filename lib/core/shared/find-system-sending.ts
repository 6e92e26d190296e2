import { and, asc, eq, isNull } from 'drizzle-orm';
import type { CoreConfig } from '@/lib/core/config';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, domains } from '@/lib/db/schema';

export type SystemSending = {
  email: string;
  name: string | null;
  domain: typeof domains.$inferSelect;
  account: typeof accounts.$inferSelect;
};

/**
 * The system sender and the verified, active domain (of whichever account owns it) that its mail
 * goes out from (invitations, reset links, notifications); null without SYSTEM_SENDER or when no account can send from it.
 */
export async function findSystemSending(db: DbOrTx, config: Pick<CoreConfig, 'systemSender'>) {
  const sender = config.systemSender;
  if (!sender) return null;
  const senderDomain = sender.email.slice(sender.email.lastIndexOf('@') + 1);
  const [sending] = await db
    .select({ domain: domains, account: accounts })
    .from(domains)
    .innerJoin(accounts, eq(accounts.id, domains.accountId))
    .where(
      and(
        eq(domains.domain, senderDomain),
        isNull(domains.deletedAt),
        eq(domains.dnsValid, true),
        eq(domains.isPaused, false),
        isNull(accounts.deletedAt),
        eq(accounts.status, 'active'),
      ),
    )
    .orderBy(asc(domains.createdAt))
    .limit(1);
  return sending ? ({ email: sender.email, name: sender.name, ...sending } satisfies SystemSending) : null;
}
