import { defineVerb } from '@/lib/core/verb';
import { presentTemplate } from './internal/present';
import { getTemplateInAccount } from './internal/queries';
import { templatePathSchema } from './schemas';

/** The draft and the number of the latest published version (null before the first publish). */
export const getTemplate = defineVerb({
  scope: 'templates:read',
  input: templatePathSchema,
  async run({ db, principal }, input) {
    return presentTemplate(await getTemplateInAccount(db, principal.targetAccountId, input.template_id));
  },
});
