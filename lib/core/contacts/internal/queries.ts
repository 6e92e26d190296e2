import { and, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { DbOrTx } from '@/lib/db/client';
import { contactAttributeDefinitions, contacts } from '@/lib/db/schema';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { checkAttributeValues, type AttributeType } from '../attribute-values';
import type { ContactRow } from './present';

/**
 * The condition that finds a contact of the account by `{id_or_email}`, or null when the segment
 * can be neither (then it is a 404, never a 400: a path names a resource). Hono has already
 * percent-decoded the segment once (R5); it is not decoded again here. The literal `import` is
 * neither a UUID nor an address, so `/contacts/import` never names a contact.
 */
export function contactMatch(accountId: string, idOrEmail: string) {
  if (isUuid(idOrEmail)) return and(eq(contacts.accountId, accountId), eq(contacts.id, idOrEmail.toLowerCase()));
  const email = normalizeEmailAddress(idOrEmail);
  if (!email.ok) return null;
  return and(eq(contacts.accountId, accountId), eq(contacts.email, email.email));
}

/** A contact of the account by id or email, or 404. */
export async function getContactInAccount(
  db: DbOrTx,
  accountId: string,
  idOrEmail: string,
  options: { forUpdate?: boolean } = {},
): Promise<ContactRow> {
  const match = contactMatch(accountId, idOrEmail);
  if (!match) throw notFound('contact not found');
  const query = db.select().from(contacts).where(match).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('contact not found');
  return row;
}

/** An address for a contact write: normalised, or the 400 naming `email`. */
export function contactEmailOrThrow(raw: string): string {
  const email = normalizeEmailAddress(raw);
  if (!email.ok) throw invalidInput(`email: ${email.reason}`, 'email');
  return email.email;
}

export async function loadAttributeDefinitions(
  db: DbOrTx,
  accountId: string,
): Promise<{ key: string; type: AttributeType }[]> {
  const rows = await db
    .select({ key: contactAttributeDefinitions.key, type: contactAttributeDefinitions.type })
    .from(contactAttributeDefinitions)
    .where(eq(contactAttributeDefinitions.accountId, accountId));
  return rows.map((row) => ({ key: row.key, type: row.type as AttributeType }));
}

/**
 * R4 for a write: the attributes checked against the account's definitions, or the 400 naming the
 * first offending key (and how many others there are). Returns what to set and what to remove.
 */
export async function checkContactAttributes(
  db: DbOrTx,
  accountId: string,
  attributes: Record<string, unknown>,
): Promise<{ set: Record<string, unknown>; remove: string[] }> {
  const errors = checkAttributeValues(await loadAttributeDefinitions(db, accountId), attributes);
  const first = errors[0];
  if (first) {
    const more =
      errors.length > 1
        ? ` (and ${errors.length - 1} more: ${errors
            .slice(1)
            .map((error) => error.key)
            .join(', ')})`
        : '';
    throw invalidInput(`attributes.${first.key}: ${first.message}${more}`, `attributes.${first.key}`);
  }
  // A plain object is safe here: every key matched a definition, and definition keys are identifiers.
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const key of Object.keys(attributes)) {
    if (attributes[key] === null) remove.push(key);
    else set[key] = attributes[key];
  }
  return { set, remove };
}

/** Who changed a subscription, for its history (R3). */
export function subscriptionSource(principal: Principal): string {
  return principal.kind === 'session' ? 'dashboard' : principal.kind === 'system' ? 'system' : 'api';
}
