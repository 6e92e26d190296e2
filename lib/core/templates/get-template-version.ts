import { defineVerb } from '@/lib/core/verb';
import { presentTemplateVersion } from './internal/present';
import { getTemplateVersionInAccount } from './internal/template-version-in-account';
import { versionPathSchema } from './schemas';

/** One published version, exactly as it was frozen. */
export const getTemplateVersion = defineVerb({
  scope: 'templates:read',
  input: versionPathSchema,
  async run({ db, principal }, input) {
    return presentTemplateVersion(
      await getTemplateVersionInAccount(db, principal.targetAccountId, input.template_id, input.version),
    );
  },
});
