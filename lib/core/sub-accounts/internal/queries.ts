import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { forbidden, notFound } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { accounts } from '@/lib/db/schema';
import { presentSubAccount, type SubAccountFacts } from './present';

type AccountRow = typeof accounts.$inferSelect;

export const SUB_ACCOUNT_NOT_FOUND = 'Sub account not found under the parent account';

/**
 * The account acting as a parent. Sub accounts are a partner-tier feature, one level deep: a sub
 * account never has sub accounts of its own, whatever its tier.
 */
export async function getPartnerAccount(db: DbOrTx, accountId: string): Promise<AccountRow> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), isNull(accounts.deletedAt)))
    .limit(1);
  if (!row) throw notFound('account not found');
  if (row.parentAccountId !== null) throw forbidden('a sub account cannot have sub accounts of its own');
  if (row.tier !== 'partner')
    throw forbidden(
      'sub accounts are a partner-tier feature: this account is on the standard tier (an operator runs `mailstead accounts set-tier <account_id> partner`)',
    );
  return row;
}

/**
 * A sub account of the parent, by id: the tenancy condition is the parent's id. A soft-deleted one is
 * found only when asked for (GET shows it with status `deleted`); every change treats it as gone.
 */
export async function getSubAccountOfParent(
  db: DbOrTx,
  parentId: string,
  subAccountId: string,
  options: { isDeletedIncluded?: boolean } = {},
): Promise<AccountRow> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.parentAccountId, parentId),
        eq(accounts.id, subAccountId),
        options.isDeletedIncluded ? undefined : isNull(accounts.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound(SUB_ACCOUNT_NOT_FOUND);
  return row;
}

/** Counts and last activity of accounts already fetched under their parent. */
export async function loadSubAccountFacts(db: DbOrTx, accountIds: string[]): Promise<Map<string, SubAccountFacts>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: accounts.id,
      // Correlated subqueries name their tables: drizzle leaves columns unqualified inside sql``.
      domainCount: sql<number>`(select count(*)::int from domains d where d.account_id = accounts.id and d.deleted_at is null)`,
      memberCount: sql<number>`(select count(*)::int from memberships m where m.account_id = accounts.id)`,
      // Ids are UUIDv7, so the newest message is the greatest id: one index probe per account.
      lastActivityAt: sql<
        string | null
      >`(select m.created_at from messages m where m.account_id = accounts.id order by m.id desc limit 1)`,
    })
    .from(accounts)
    .where(inArray(accounts.id, accountIds));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        domainCount: Number(row.domainCount),
        memberCount: Number(row.memberCount),
        lastActivityAt: row.lastActivityAt ? new Date(row.lastActivityAt) : null,
      },
    ]),
  );
}

export async function presentSubAccounts(db: DbOrTx, rows: AccountRow[]) {
  const facts = await loadSubAccountFacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    presentSubAccount(row, facts.get(row.id) ?? { domainCount: 0, memberCount: 0, lastActivityAt: null }),
  );
}

export async function presentOneSubAccount(db: DbOrTx, row: AccountRow) {
  const [presented] = await presentSubAccounts(db, [row]);
  return presented;
}
