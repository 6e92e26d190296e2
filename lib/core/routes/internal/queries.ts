import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { domains, routes } from '@/lib/db/schema';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { RouteRow } from './present';
import { parseRecipientPattern } from './recipient-pattern';

/** A route of the account, or 404. */
export async function getRouteInAccount(db: DbOrTx, accountId: string, routeId: string): Promise<RouteRow> {
  if (!isUuid(routeId)) throw notFound('route not found');
  const [row] = await db
    .select()
    .from(routes)
    .where(and(eq(routes.accountId, accountId), eq(routes.id, routeId)))
    .limit(1);
  if (!row) throw notFound('route not found');
  return row;
}

/** The domains a scope check is asked about for a pattern: its domain, or none (only `:all` covers a route without one). */
export function recipientDomains(raw: string): string[] {
  const parsed = parseRecipientPattern(raw);
  return parsed.ok && parsed.domain ? [parsed.domain] : [];
}

/**
 * A recipient pattern as stored: lower-cased, and its domain a live domain of the account, so that
 * no account can route (and read) mail for a domain it has not added.
 */
export async function resolveRouteRecipient(
  db: DbOrTx,
  accountId: string,
  raw: string,
): Promise<{ recipient: string; domain: string | null }> {
  const parsed = parseRecipientPattern(raw);
  if (!parsed.ok) throw invalidInput(`recipient: is not a recipient pattern: ${parsed.reason}`, 'recipient');
  if (parsed.domain === null) return { recipient: parsed.recipient, domain: null };
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.accountId, accountId), eq(domains.domain, parsed.domain), isNull(domains.deletedAt)))
    .limit(1);
  if (!row) throw invalidInput(`recipient: ${parsed.domain} is not a domain of this account`, 'recipient');
  return { recipient: parsed.recipient, domain: parsed.domain };
}
