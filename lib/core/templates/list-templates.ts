import { and, eq, isNull } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { templates } from '@/lib/db/schema';
import { presentTemplate, type TemplateRow } from './internal/present';
import { listTemplatesQuerySchema } from './schemas';

/** The account's templates, newest first, optionally of one kind; deleted ones are left out. */
export const listTemplates = defineVerb({
  scope: 'templates:read',
  input: listTemplatesQuerySchema,
  async run({ db, principal }, query) {
    return paginate(db, {
      table: templates,
      idColumn: templates.id,
      where: and(
        eq(templates.accountId, principal.targetAccountId),
        isNull(templates.deletedAt),
        query.kind ? eq(templates.kind, query.kind) : undefined,
      ),
      query,
      map: async (rows: TemplateRow[]) => rows.map(presentTemplate),
    });
  },
});
