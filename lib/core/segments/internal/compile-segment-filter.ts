import { and, eq, inArray, not, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isCanonicalAttributeValue, type AttributeType } from '@/lib/core/contacts/attribute-values';
import type { DbOrTx } from '@/lib/db/client';
import {
  contactAttributeDefinitions,
  contactEngagement,
  contactLists,
  contacts,
  listMemberships,
  segments,
} from '@/lib/db/schema';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import {
  attributeKeyOf,
  MAX_IN_VALUES,
  MAX_VALUE_LENGTH,
  type FieldCondition,
  type SegmentFilter,
  type SegmentNode,
  type SegmentOp,
} from '../schemas';

/** The contacts table under the alias `c`, which every compiled condition reads. */
export const segmentContact = alias(contacts, 'c');
const c = segmentContact;

export type SegmentRow = typeof segments.$inferSelect;

/** A segment of the account, or 404. */
export async function getSegmentInAccount(db: DbOrTx, accountId: string, segmentId: string): Promise<SegmentRow> {
  if (!isUuid(segmentId)) throw notFound('segment not found');
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.accountId, accountId), eq(segments.id, segmentId.toLowerCase())))
    .limit(1);
  if (!row) throw notFound('segment not found');
  return row;
}

type Context = { types: Map<string, AttributeType>; listIds: Set<string> };
type Path = (string | number)[];

const ORDER_OPS: SegmentOp[] = ['eq', 'neq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists'];
const OPS_BY_TYPE: Record<AttributeType, SegmentOp[]> = {
  string: [...ORDER_OPS, 'contains', 'starts_with', 'ends_with'],
  number: ORDER_OPS,
  date: ORDER_OPS,
  datetime: ORDER_OPS,
  boolean: ['eq', 'neq', 'exists', 'not_exists'],
};
const VALUE_FORMS: Record<AttributeType, string> = {
  string: `a string of at most ${MAX_VALUE_LENGTH} characters`,
  number: 'a number',
  boolean: 'true or false',
  date: 'a date as "YYYY-MM-DD"',
  datetime: 'an RFC 3339 datetime, e.g. "2026-01-05T10:30:00Z"',
};

const fail = (path: Path, message: string) => invalidInput(`filter.${path.join('.')}: ${message}`, 'filter');

/** `%`, `_` and `\` in a value are literal text, not patterns (LIKE's escape character is `\`). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function isValue(type: AttributeType, value: unknown): boolean {
  if (type === 'string') return typeof value === 'string' && value.length <= MAX_VALUE_LENGTH;
  return isCanonicalAttributeValue(type, value);
}

/** The value as a typed SQL parameter: numbers travel as text so that no digit is lost to a double. */
function param(type: AttributeType, value: unknown): SQL {
  switch (type) {
    case 'string':
      return sql`${value as string}::text`;
    case 'number':
      return sql`${String(value)}::numeric`;
    case 'boolean':
      return sql`${value as boolean}::boolean`;
    case 'date':
      return sql`${value as string}::date`;
    case 'datetime':
      return sql`${value as string}::timestamptz`;
  }
}

const DATE_FORM = '^\\d{4}-\\d{2}-\\d{2}$';
const DATETIME_FORM = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

/**
 * An attribute's value in its definition's type, or NULL when the stored JSON is of another type:
 * CASE, not AND, because PostgreSQL may evaluate AND's operands in any order and the cast must
 * never see a value it would choke on.
 */
function attributeValue(key: string, type: AttributeType): SQL {
  const json = sql`(${c.attributes} -> ${key}::text)`;
  const text = sql`(${c.attributes} ->> ${key}::text)`;
  switch (type) {
    case 'string':
      return sql`(case when jsonb_typeof(${json}) = 'string' then ${text} end)`;
    case 'number':
      return sql`(case when jsonb_typeof(${json}) = 'number' then ${text}::numeric end)`;
    case 'boolean':
      return sql`(case when jsonb_typeof(${json}) = 'boolean' then ${text}::boolean end)`;
    case 'date':
      return sql`(case when jsonb_typeof(${json}) = 'string' and ${text} ~ ${DATE_FORM} then ${text}::date end)`;
    case 'datetime':
      return sql`(case when jsonb_typeof(${json}) = 'string' and ${text} ~ ${DATETIME_FORM} then ${text}::timestamptz end)`;
  }
}

/** The field's type and its SQL expression. */
function fieldOf(
  condition: FieldCondition,
  path: Path,
  context: Context,
): { type: AttributeType; value: SQL; key?: string } {
  switch (condition.field) {
    case 'email':
      return { type: 'string', value: sql`${c.email}` };
    case 'first_name':
      return { type: 'string', value: sql`${c.firstName}` };
    case 'last_name':
      return { type: 'string', value: sql`${c.lastName}` };
    case 'created_at':
      return { type: 'datetime', value: sql`${c.createdAt}` };
    case 'unsubscribed':
      return { type: 'boolean', value: sql`${c.unsubscribed}` };
  }
  const key = attributeKeyOf(condition.field) as string;
  const type = context.types.get(key);
  if (!type) throw fail([...path, 'field'], `attribute \`${key}\` is not defined for this account`);
  return { type, value: attributeValue(key, type), key };
}

function compileField(condition: FieldCondition, path: Path, context: Context): SQL {
  const { type, value, key } = fieldOf(condition, path, context);
  const { op } = condition;
  if (!OPS_BY_TYPE[type].includes(op))
    throw fail([...path, 'op'], `${op} does not apply to a ${type} field; use one of ${OPS_BY_TYPE[type].join(', ')}`);
  // Addresses are stored lowercased and trimmed, so a value is compared in the same form.
  const normalise = (v: unknown) => (condition.field === 'email' && typeof v === 'string' ? v.trim().toLowerCase() : v);

  if (op === 'exists' || op === 'not_exists') {
    // `?` reads the GIN index on attributes; a name is "there" when not empty.
    const present = key
      ? sql`(${c.attributes} ? ${key}::text and jsonb_typeof(${c.attributes} -> ${key}::text) <> 'null')`
      : condition.field === 'first_name' || condition.field === 'last_name'
        ? sql`(coalesce(${value}, '') <> '')`
        : sql`true`;
    return op === 'exists' ? present : sql`not ${present}`;
  }
  if (op === 'in' || op === 'not_in') {
    const values = condition.value;
    if (!Array.isArray(values) || values.length < 1 || values.length > MAX_IN_VALUES)
      throw fail([...path, 'value'], `must be an array of 1 to ${MAX_IN_VALUES} values`);
    values.forEach((item, index) => {
      if (!isValue(type, item)) throw fail([...path, 'value', index], `must be ${VALUE_FORMS[type]}`);
    });
    const list = sql.join(
      values.map((item) => param(type, normalise(item))),
      sql`, `,
    );
    // A contact without a value is "not in" any set, as it is "not equal" to any value.
    return op === 'in' ? sql`(${value} in (${list}))` : sql`(${value} is null or ${value} not in (${list}))`;
  }
  if (!isValue(type, condition.value)) throw fail([...path, 'value'], `must be ${VALUE_FORMS[type]}`);
  const operand = normalise(condition.value);
  const typed = param(type, operand);
  switch (op) {
    case 'eq':
      // Containment reads the GIN index on attributes; JSON equality of numbers is numeric (1 = 1.0).
      if (key && type !== 'date' && type !== 'datetime')
        return sql`(${c.attributes} @> ${JSON.stringify({ [key]: operand })}::jsonb)`;
      return sql`(${value} = ${typed})`;
    case 'neq':
      return sql`(${value} is distinct from ${typed})`;
    case 'gt':
      return sql`(${value} > ${typed})`;
    case 'gte':
      return sql`(${value} >= ${typed})`;
    case 'lt':
      return sql`(${value} < ${typed})`;
    case 'lte':
      return sql`(${value} <= ${typed})`;
    case 'contains':
      return sql`(${value} ilike ${`%${escapeLike(operand as string)}%`})`;
    case 'starts_with':
      return sql`(${value} ilike ${`${escapeLike(operand as string)}%`})`;
    case 'ends_with':
      return sql`(${value} ilike ${`%${escapeLike(operand as string)}`})`;
  }
  throw fail([...path, 'op'], `unknown op ${op}`);
}

const ENGAGEMENT_COLUMNS = {
  received: contactEngagement.lastReceivedAt,
  opened: contactEngagement.lastOpenedAt,
  clicked: contactEngagement.lastClickedAt,
} as const;

function compileNode(node: SegmentNode, path: Path, context: Context): SQL {
  if ('all' in node || 'any' in node) {
    const kind = 'all' in node ? 'all' : 'any';
    const children = 'all' in node ? node.all : node.any;
    const compiled = children.map((child, index) => compileNode(child, [...path, kind, index], context));
    // An empty group: all of nothing holds for everyone, any of nothing for no one.
    if (compiled.length === 0) return kind === 'all' ? sql`true` : sql`false`;
    return sql`(${(kind === 'all' ? and(...compiled) : or(...compiled)) as SQL})`;
  }
  if ('list' in node) {
    if (!context.listIds.has(node.list)) throw fail([...path, 'list'], `list ${node.list} not found`);
    return sql`exists (select 1 from ${listMemberships} where ${listMemberships.contactId} = ${c.id} and ${listMemberships.listId} = ${node.list} and ${listMemberships.subscriptionStatus} = ${node.status})`;
  }
  if ('engagement' in node) {
    const negated = node.engagement === 'not_opened' || node.engagement === 'not_clicked';
    const column =
      ENGAGEMENT_COLUMNS[
        node.engagement === 'not_opened' ? 'opened' : node.engagement === 'not_clicked' ? 'clicked' : node.engagement
      ];
    const recent = sql`exists (select 1 from ${contactEngagement} where ${contactEngagement.contactId} = ${c.id} and ${column} >= now() - ${node.within_days}::int * interval '1 day')`;
    return negated ? (not(recent) as SQL) : recent;
  }
  return compileField(node, path, context);
}

function collect(node: SegmentNode, keys: Set<string>, lists: Set<string>): void {
  if ('all' in node || 'any' in node) {
    for (const child of 'all' in node ? node.all : node.any) collect(child, keys, lists);
  } else if ('list' in node) lists.add(node.list);
  else if ('field' in node) {
    const key = attributeKeyOf(node.field);
    if (key) keys.add(key);
  }
}

/**
 * The filter as one parameterised boolean condition over `segmentContact` (alias `c`): every value
 * a user wrote travels as a parameter. Checks each leaf against the account (attribute definitions
 * and their types, lists of the account, deleted ones included since their memberships stay, R10)
 * and throws 400 naming the leaf. The caller adds `c.account_id = ...`.
 */
export async function compileSegmentFilter(db: DbOrTx, accountId: string, filter: SegmentFilter): Promise<SQL> {
  const keys = new Set<string>();
  const lists = new Set<string>();
  collect(filter, keys, lists);
  const types = new Map<string, AttributeType>();
  if (keys.size) {
    const rows = await db
      .select({ key: contactAttributeDefinitions.key, type: contactAttributeDefinitions.type })
      .from(contactAttributeDefinitions)
      .where(
        and(eq(contactAttributeDefinitions.accountId, accountId), inArray(contactAttributeDefinitions.key, [...keys])),
      );
    for (const row of rows) types.set(row.key, row.type as AttributeType);
  }
  const listIds = new Set<string>();
  if (lists.size) {
    const rows = await db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.accountId, accountId), inArray(contactLists.id, [...lists])));
    for (const row of rows) listIds.add(row.id);
  }
  return compileNode(filter, [], { types, listIds });
}
