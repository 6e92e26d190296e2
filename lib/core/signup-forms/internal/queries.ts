import { isIP } from 'node:net';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { loadAttributeDefinitions } from '@/lib/core/contacts/internal/queries';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, contactLists, domains, signupForms } from '@/lib/db/schema';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { isPrivateAddress } from '@/lib/shared/private-address';
import { BUILT_IN_FIELDS, HONEYPOT_FIELD } from '../schemas';
import type { SignupFormRow } from './present';

/** A live form of the account, or 404. */
export async function getSignupFormInAccount(db: DbOrTx, accountId: string, formId: string): Promise<SignupFormRow> {
  if (!isUuid(formId)) throw notFound('signup form not found');
  const [row] = await db
    .select()
    .from(signupForms)
    .where(
      and(
        eq(signupForms.accountId, accountId),
        eq(signupForms.id, formId.toLowerCase()),
        isNull(signupForms.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound('signup form not found');
  return row;
}

/** The ids given, each one a live list of the account (400 naming list_ids otherwise), each once. */
export async function checkFormLists(db: DbOrTx, accountId: string, listIds: string[]): Promise<string[]> {
  const ids = [...new Set(listIds.map((id) => id.toLowerCase()))];
  const unknown = ids.filter((id) => !isUuid(id));
  const found = unknown.length
    ? []
    : await db
        .select({ id: contactLists.id })
        .from(contactLists)
        .where(
          and(eq(contactLists.accountId, accountId), inArray(contactLists.id, ids), isNull(contactLists.deletedAt)),
        );
  const live = new Set(found.map((row) => row.id));
  const missing = ids.find((id) => !live.has(id));
  if (missing !== undefined) throw invalidInput(`list_ids: no list ${missing} in this account`, 'list_ids');
  return ids;
}

/** Attribute keys the account has defined (400 naming fields otherwise); the built-in fields are always on the form. */
export async function checkFormFields(db: DbOrTx, accountId: string, fields: string[]): Promise<string[]> {
  const defined = new Set((await loadAttributeDefinitions(db, accountId)).map((definition) => definition.key));
  for (const key of fields) {
    if ((BUILT_IN_FIELDS as readonly string[]).includes(key) || key === HONEYPOT_FIELD)
      throw invalidInput(`fields: ${key} is always on the form; list only attribute keys`, 'fields');
    if (!defined.has(key))
      throw invalidInput(`fields: ${key} is not one of the account's contact attributes`, 'fields');
  }
  return fields;
}

/**
 * Where a form post may send the browser: https, and not a loopback or private address given
 * literally. No DNS lookup: we never fetch it, the browser only follows it.
 */
export function checkRedirectUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if ((isIP(host) && isPrivateAddress(host)) || host === 'localhost' || host.endsWith('.localhost'))
    throw invalidInput(`redirect_url: ${host} is not a public address`, 'redirect_url');
  return raw;
}

export type ConfirmationSending = {
  email: string;
  name: string;
  domain: typeof domains.$inferSelect;
  account: typeof accounts.$inferSelect;
};

/**
 * Who an account's confirmation mails come from: no-reply at its oldest verified, unpaused
 * marketing domain, named after the account. Null when it has none: no confirmation mail goes out.
 */
export async function findConfirmationSending(db: DbOrTx, accountId: string): Promise<ConfirmationSending | null> {
  const [found] = await db
    .select({ domain: domains, account: accounts })
    .from(domains)
    .innerJoin(accounts, eq(accounts.id, domains.accountId))
    .where(
      and(
        eq(domains.accountId, accountId),
        eq(domains.sendingType, 'marketing'),
        eq(domains.dnsValid, true),
        eq(domains.isPaused, false),
        isNull(domains.deletedAt),
      ),
    )
    .orderBy(asc(domains.createdAt))
    .limit(1);
  if (!found) return null;
  return { email: `no-reply@${found.domain.domain}`, name: found.account.name, ...found };
}
