import { and, asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/lib/db/client';
import { invalidInput } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { z } from '@/lib/core/zod';

/**
 * Cursor pagination shared by every list: keyset on the UUIDv7 id, newest first. Cursors are opaque
 * (base64url JSON of the boundary id). `cursor` is the legacy name of `after` that the official CLI
 * still sends; empty query values count as absent because real clients send `cursor=`.
 */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const pageQuerySchema = z.object({
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'limit must be between 1 and 100' })
      .int('limit must be between 1 and 100')
      .min(1, 'limit must be between 1 and 100')
      .max(100, 'limit must be between 1 and 100')
      .default(100),
  ),
  after: z.preprocess(emptyToUndefined, z.string().optional()),
  before: z.preprocess(emptyToUndefined, z.string().optional()),
  cursor: z.preprocess(emptyToUndefined, z.string().optional()),
});

export type PageQuery = z.output<typeof pageQuerySchema>;

export type Page<T> = {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
  previousCursor?: string;
};

/** Exported for keyset pages over a column other than `id` (a list's members, by contact id). */
export function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id })).toString('base64url');
}

export function decodeCursor(cursor: string, name: string): string {
  const id = readCursor(cursor)?.id;
  if (typeof id === 'string' && isUuid(id)) return id;
  throw invalidCursor(name);
}

/** For keyset pages over a whole number (a template's versions): the same opaque form, `{"number": 3}`. */
export function encodeNumberCursor(number: number): string {
  return Buffer.from(JSON.stringify({ number })).toString('base64url');
}

export function decodeNumberCursor(cursor: string, name: string): number {
  const number = readCursor(cursor)?.number;
  if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) return number;
  throw invalidCursor(name);
}

function readCursor(cursor: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const invalidCursor = (name: string) =>
  invalidInput(name === 'cursor' ? 'invalid cursor' : `invalid ${name} cursor`, name);

/**
 * Runs one keyset page. `where` must already hold the tenancy condition; `map` turns rows into API
 * objects. Two small EXISTS-style probes decide whether there are items on either side of the page.
 */
export async function paginate<TRow extends { id: string }, T>(
  db: DbOrTx,
  options: {
    table: PgTable;
    idColumn: PgColumn;
    where: SQL | undefined;
    query: PageQuery;
    map: (rows: TRow[]) => T[] | Promise<T[]>;
    /** The columns to read, when some are too large to read for a list (media's bytes); every column without it. */
    columns?: Record<string, PgColumn>;
  },
): Promise<Page<T>> {
  const { table, idColumn, where, query, columns } = options;
  const afterRaw = query.after ?? query.cursor;
  if (afterRaw !== undefined && query.before !== undefined) {
    throw invalidInput('after and before cannot be used together', 'before');
  }
  const limit = query.limit;
  const select = (condition: SQL | undefined, order: SQL, take: number) =>
    (columns ? db.select(columns) : db.select())
      .from(table)
      .where(and(where, condition))
      .orderBy(order)
      .limit(take) as unknown as Promise<TRow[]>;
  const probe = async (condition: SQL) => (await select(condition, asc(idColumn), 1)).length > 0;

  if (query.before !== undefined) {
    const beforeId = decodeCursor(query.before, 'before');
    const rows = await select(gt(idColumn, beforeId), asc(idColumn), limit + 1);
    const hasPrevious = rows.length > limit;
    const pageRows = rows.slice(0, limit).reverse();
    const last = pageRows.at(-1);
    const hasMore = last ? await probe(lt(idColumn, last.id)) : false;
    return finish(pageRows, hasMore, hasPrevious);
  }

  const afterId =
    afterRaw !== undefined ? decodeCursor(afterRaw, query.after !== undefined ? 'after' : 'cursor') : undefined;
  const rows = await select(afterId ? lt(idColumn, afterId) : undefined, desc(idColumn), limit + 1);
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const first = pageRows[0];
  const hasPrevious = afterId !== undefined && first !== undefined ? await probe(gt(idColumn, first.id)) : false;
  return finish(pageRows, hasMore, hasPrevious);

  async function finish(pageRows: TRow[], hasMore: boolean, hasPrevious: boolean): Promise<Page<T>> {
    const firstId = pageRows[0]?.id;
    const lastId = pageRows.at(-1)?.id;
    return {
      items: await options.map(pageRows),
      hasMore,
      nextCursor: hasMore && lastId ? encodeCursor(lastId) : undefined,
      previousCursor: hasPrevious && firstId ? encodeCursor(firstId) : undefined,
    };
  }
}
