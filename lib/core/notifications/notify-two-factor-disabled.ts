import { asc, eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberships, users } from '@/lib/db/schema';
import { notifyPeople } from './notify-people';

/**
 * Tells a person that two-factor sign-in was turned off for them (by themselves, an administrator or
 * the operator). Call it in the transaction that turns it off. `accountId`: the account the person
 * was acting in, for the link and the audit event; by default the first account they belong to.
 */
export async function notifyTwoFactorDisabled(
  services: Pick<Services, 'config' | 'logger' | 'now'>,
  db: DbOrTx,
  input: { userId: string; accountId?: string; detail?: string | null; requestId?: string },
): Promise<number> {
  if (!services.config.systemSender) return 0;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, input.userId)).limit(1);
  const accountId = input.accountId ?? (await firstAccountOf(db, input.userId));
  if (!user || !accountId) return 0;
  return notifyPeople(services, db, {
    kind: 'two_factor_disabled',
    accountId,
    resource: { id: input.userId, name: user.email },
    userId: input.userId,
    detail: input.detail ?? null,
    requestId: input.requestId,
  });
}

async function firstAccountOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [owned] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.ownerId, userId))
    .orderBy(asc(accounts.createdAt))
    .limit(1);
  if (owned) return owned.id;
  const [member] = await db
    .select({ id: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  return member?.id ?? null;
}
