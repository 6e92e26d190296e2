import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { accounts } from '@/lib/db/schema';

/** The account the principal acts on; a deleted account does not exist. */
export async function getAccountById(db: DbOrTx, accountId: string) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), isNull(accounts.deletedAt)))
    .limit(1);
  if (!row) throw notFound('account not found');
  return row;
}
