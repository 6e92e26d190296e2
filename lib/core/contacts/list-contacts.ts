import { and, eq, exists, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { getListInAccount } from '@/lib/core/lists/internal/queries';
import { isCanonicalAttributeValue } from './attribute-values';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { contactAttributeDefinitions, contacts, listMemberships } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { presentContact, type ContactRow } from './internal/present';
import { contactEmailOrThrow } from './internal/queries';
import { listContactsQuerySchema } from './schemas';

/** A stored value that reads as a datetime (a parameter: a `\d` written inside sql`` loses its backslash). */
const DATETIME_PREFIX = '^\\d{4}-\\d{2}-\\d{2}[Tt]';

/** `%`, `_` and `\` in a search are literal text, not patterns. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * `attribute_key = attribute_value` in the definition's type: `"42"` finds the number 42, `"true"`
 * the boolean, a datetime any writing of the same instant. Containment where it can (the GIN index);
 * text for an undefined key or a value that is not of the type (then nothing of the type matches).
 */
async function attributeEquals(db: DbOrTx, accountId: string, key: string, value: string): Promise<SQL> {
  const [definition] = await db
    .select({ type: contactAttributeDefinitions.type })
    .from(contactAttributeDefinitions)
    .where(and(eq(contactAttributeDefinitions.accountId, accountId), eq(contactAttributeDefinitions.key, key)));
  const contains = (typed: unknown) => sql`${contacts.attributes} @> ${JSON.stringify({ [key]: typed })}::jsonb`;
  const number = Number(value);
  if (definition?.type === 'number' && value.trim() !== '' && Number.isFinite(number)) return contains(number);
  if (definition?.type === 'boolean' && (value === 'true' || value === 'false')) return contains(value === 'true');
  if (definition?.type === 'datetime' && isCanonicalAttributeValue('datetime', value))
    return sql`(case when jsonb_typeof(${contacts.attributes} -> ${key}::text) = 'string' and ${contacts.attributes} ->> ${key}::text ~ ${DATETIME_PREFIX} then (${contacts.attributes} ->> ${key}::text)::timestamptz end) = ${value}::timestamptz`;
  if (definition?.type === 'string' || definition?.type === 'date') return contains(value);
  return sql`${contacts.attributes} ->> ${key} = ${value}`;
}

/** The account's contacts, newest first, with the contract's filters and the dashboard's search. */
export const listContacts = defineVerb({
  scope: 'contacts:read',
  input: listContactsQuerySchema,
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const conditions: (SQL | undefined)[] = [eq(contacts.accountId, accountId)];
    if (query.email !== undefined) conditions.push(eq(contacts.email, contactEmailOrThrow(query.email)));
    if (query.unsubscribed !== undefined) conditions.push(eq(contacts.unsubscribed, query.unsubscribed === 'true'));
    if (query.created_after) conditions.push(gte(contacts.createdAt, new Date(query.created_after)));
    if (query.created_before) conditions.push(lte(contacts.createdAt, new Date(query.created_before)));
    if (query.search !== undefined) {
      const pattern = `%${escapeLike(query.search.trim())}%`;
      conditions.push(
        or(ilike(contacts.email, pattern), ilike(contacts.firstName, pattern), ilike(contacts.lastName, pattern)),
      );
    }
    if (query.list_id !== undefined) {
      const list = await getListInAccount(db, accountId, query.list_id);
      conditions.push(
        exists(
          db
            .select({ one: sql`1` })
            .from(listMemberships)
            .where(and(eq(listMemberships.listId, list.id), eq(listMemberships.contactId, contacts.id))),
        ),
      );
    }
    if ((query.attribute_key === undefined) !== (query.attribute_value === undefined)) {
      throw invalidInput(
        'attribute_key and attribute_value go together',
        query.attribute_key === undefined ? 'attribute_key' : 'attribute_value',
      );
    }
    if (query.attribute_key !== undefined)
      conditions.push(await attributeEquals(db, accountId, query.attribute_key, query.attribute_value!));
    return paginate(db, {
      table: contacts,
      idColumn: contacts.id,
      where: and(...conditions),
      query,
      map: (rows: ContactRow[]) => rows.map(presentContact),
    });
  },
});
