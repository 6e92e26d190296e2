import { and, eq, inArray, or } from 'drizzle-orm';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { DbOrTx } from '@/lib/db/client';
import { contacts } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';

/**
 * Contact ids for references by id or email, in one query within the account. Any reference that
 * names no contact of the account makes the whole request a 404 that lists them (at most five).
 */
export async function resolveContactIds(db: DbOrTx, accountId: string, references: string[]): Promise<string[]> {
  const ids = new Map<string, string>();
  const emails = new Map<string, string>();
  const unknown: string[] = [];
  for (const reference of references) {
    if (isUuid(reference)) ids.set(reference.toLowerCase(), reference);
    else {
      const email = normalizeEmailAddress(reference);
      if (email.ok) emails.set(email.email, reference);
      else unknown.push(reference);
    }
  }
  const found =
    ids.size + emails.size === 0
      ? []
      : await db
          .select({ id: contacts.id, email: contacts.email })
          .from(contacts)
          .where(
            and(
              eq(contacts.accountId, accountId),
              or(
                ids.size ? inArray(contacts.id, [...ids.keys()]) : undefined,
                emails.size ? inArray(contacts.email, [...emails.keys()]) : undefined,
              ),
            ),
          );
  const foundIds = new Set(found.map((row) => row.id));
  const foundEmails = new Set(found.map((row) => row.email));
  for (const [id, reference] of ids) if (!foundIds.has(id)) unknown.push(reference);
  for (const [email, reference] of emails) if (!foundEmails.has(email)) unknown.push(reference);
  if (unknown.length > 0) {
    const named = unknown
      .slice(0, 5)
      .map((reference) => JSON.stringify(reference))
      .join(', ');
    throw notFound(`contact not found: ${named}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`);
  }
  return [...foundIds].sort();
}
