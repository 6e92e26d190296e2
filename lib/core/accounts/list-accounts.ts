import { asc, eq, isNull, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts, users } from '@/lib/db/schema';

/** Operator verb: every account on this instance, oldest first. */
export const listAccounts = defineVerb({
  scope: 'system',
  input: z.object({}),
  async run({ db }) {
    const rows = await db
      .select({
        id: accounts.id,
        name: accounts.name,
        tier: accounts.tier,
        status: accounts.status,
        parentAccountId: accounts.parentAccountId,
        ownerEmail: users.email,
        createdAt: accounts.createdAt,
      })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.ownerId))
      .where(isNull(accounts.deletedAt))
      .orderBy(asc(accounts.createdAt), asc(sql`${accounts.id}`));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      tier: row.tier,
      status: row.status,
      parent_account_id: row.parentAccountId,
      owner_email: row.ownerEmail,
      created_at: row.createdAt.toISOString(),
    }));
  },
});
