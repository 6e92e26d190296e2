import { defineVerb } from '@/lib/core/verb';
import { presentTemplateVersion } from './internal/present';
import { getTemplateInAccount } from './internal/queries';
import { listTemplateVersionsQuerySchema } from './schemas';
import { pageTemplateVersions } from './internal/version-page';

/** A template's published versions, newest first, cursor-paginated like every list. */
export const listTemplateVersions = defineVerb({
  scope: 'templates:read',
  input: listTemplateVersionsQuerySchema,
  async run({ db, principal }, query) {
    const template = await getTemplateInAccount(db, principal.targetAccountId, query.template_id);
    const page = await pageTemplateVersions(db, {
      accountId: principal.targetAccountId,
      templateId: template.id,
      query,
    });
    return { ...page, items: page.items.map(presentTemplateVersion) };
  },
});
