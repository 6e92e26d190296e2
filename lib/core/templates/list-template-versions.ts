import { and, desc, eq } from 'drizzle-orm';
import type { Page } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { templateVersions } from '@/lib/db/schema';
import { presentTemplateVersion, type TemplateVersionObject } from './present';
import { getTemplateInAccount } from './queries';
import { templatePathSchema } from './schemas';

/** Every published version of a template, newest first. Versions are few (one per publish): always one page. */
export const listTemplateVersions = defineVerb({
  scope: 'templates:read',
  input: templatePathSchema,
  async run({ db, principal }, input) {
    const template = await getTemplateInAccount(db, principal.targetAccountId, input.template_id);
    const rows = await db
      .select()
      .from(templateVersions)
      .where(and(eq(templateVersions.accountId, principal.targetAccountId), eq(templateVersions.templateId, template.id)))
      .orderBy(desc(templateVersions.version));
    return { items: rows.map(presentTemplateVersion), hasMore: false } satisfies Page<TemplateVersionObject>;
  },
});
