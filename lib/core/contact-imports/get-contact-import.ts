import { defineVerb } from '@/lib/core/verb';
import { presentContactImport } from './internal/present';
import { getContactImportInAccount } from './internal/queries';
import { contactImportPathSchema } from './schemas';

/** An import's progress: status, counts, the first errors, and why it failed. */
export const getContactImport = defineVerb({
  scope: 'contacts:read',
  input: contactImportPathSchema,
  async run({ db, principal }, input) {
    return presentContactImport(await getContactImportInAccount(db, principal.targetAccountId, input.import_id));
  },
});
