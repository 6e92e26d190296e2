import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { dkimKeys, domains } from '@/lib/db/schema';
import { normalizeDomainName } from './normalize-domain-name';

/** A live domain of the account by name (as written in a path: any case, trailing dot, IDN). */
export async function getDomainInAccount(db: DbOrTx, accountId: string, rawName: string) {
  const name = normalizeDomainName(rawName);
  if (!name.ok) throw notFound('domain not found');
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.accountId, accountId), eq(domains.domain, name.domain), isNull(domains.deletedAt)))
    .limit(1);
  if (!row) throw notFound('domain not found');
  return row;
}

/** The active and standby keys of domains already fetched within an account. */
export async function loadLiveKeys(db: DbOrTx, domainIds: string[]) {
  if (domainIds.length === 0) return [];
  return db
    .select()
    .from(dkimKeys)
    .where(and(inArray(dkimKeys.domainId, domainIds), ne(dkimKeys.status, 'retired')));
}

export function keysOf<T extends { domainId: string }>(keys: T[], domainId: string): T[] {
  return keys.filter((key) => key.domainId === domainId);
}
