import { and, eq, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberships } from '@/lib/db/schema';

/**
 * The accounts of a person's memberships that require two-factor sign-in of them: by their own
 * setting, or by their partner's (a sub account inherits it, as session access decides in
 * find-session-access.ts). `required_by` names the account whose setting it is.
 */
export async function accountsRequiringTwoFactor(db: DbOrTx, userId: string) {
  const parent = alias(accounts, 'parent');
  const rows = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      isOwnSetting: accounts.requireTwoFactor,
      parentName: parent.name,
    })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .leftJoin(parent, eq(parent.id, accounts.parentAccountId))
    .where(
      and(
        eq(memberships.userId, userId),
        isNull(accounts.deletedAt),
        or(eq(accounts.requireTwoFactor, true), eq(parent.requireTwoFactor, true)),
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    requiredBy: row.isOwnSetting ? row.name : (row.parentName ?? row.name),
  }));
}
