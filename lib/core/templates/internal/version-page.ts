import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import { decodeNumberCursor, encodeNumberCursor, type Page, type PageQuery } from '@/lib/core/shared/pagination';
import type { DbOrTx } from '@/lib/db/client';
import { templateVersions } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import type { TemplateVersionRow } from './present';

/**
 * A page of one template's versions with the same cursors as every other list. Versions have no id
 * of their own; their number is the keyset instead (newest, the highest, first), which the primary
 * key (template, version) serves.
 */
export async function pageTemplateVersions(
  db: DbOrTx,
  options: { accountId: string; templateId: string; query: PageQuery },
): Promise<Page<TemplateVersionRow>> {
  const { query } = options;
  const afterRaw = query.after ?? query.cursor;
  if (afterRaw !== undefined && query.before !== undefined)
    throw invalidInput('after and before cannot be used together', 'before');
  const limit = query.limit;
  const where = and(
    eq(templateVersions.accountId, options.accountId),
    eq(templateVersions.templateId, options.templateId),
  );
  const select = (condition: SQL | undefined, order: SQL, take: number) =>
    db.select().from(templateVersions).where(and(where, condition)).orderBy(order).limit(take);
  const probe = async (condition: SQL) => (await select(condition, asc(templateVersions.version), 1)).length > 0;

  let rows: TemplateVersionRow[];
  let hasMore: boolean;
  let hasPrevious: boolean;
  if (query.before !== undefined) {
    const before = decodeNumberCursor(query.before, 'before');
    const found = await select(gt(templateVersions.version, before), asc(templateVersions.version), limit + 1);
    hasPrevious = found.length > limit;
    rows = found.slice(0, limit).reverse();
    const last = rows.at(-1);
    hasMore = last ? await probe(lt(templateVersions.version, last.version)) : false;
  } else {
    const after =
      afterRaw !== undefined ? decodeNumberCursor(afterRaw, query.after !== undefined ? 'after' : 'cursor') : undefined;
    const found = await select(
      after !== undefined ? lt(templateVersions.version, after) : undefined,
      desc(templateVersions.version),
      limit + 1,
    );
    hasMore = found.length > limit;
    rows = found.slice(0, limit);
    const first = rows[0];
    hasPrevious =
      after !== undefined && first !== undefined ? await probe(gt(templateVersions.version, first.version)) : false;
  }
  const first = rows[0];
  const last = rows.at(-1);
  return {
    items: rows,
    hasMore,
    nextCursor: hasMore && last ? encodeNumberCursor(last.version) : undefined,
    previousCursor: hasPrevious && first ? encodeNumberCursor(first.version) : undefined,
  };
}
