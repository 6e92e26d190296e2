import { defineVerb } from '@/lib/core/verb';
import { presentContactExport } from './internal/present';
import { getContactExportInAccount } from './internal/queries';
import { contactExportPathSchema } from './schemas';

/** An export's progress: status, contacts written of the total, and the file's URL when done. */
export const getContactExport = defineVerb({
  scope: 'contacts:read',
  input: contactExportPathSchema,
  async run({ db, principal, config }, input) {
    const row = await getContactExportInAccount(db, principal.targetAccountId, input.export_id);
    return presentContactExport(row, config.publicUrl);
  },
});
