import { eq } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { contactExports } from '@/lib/db/schema';
import { presentContactExport, type ContactExportRow } from './internal/present';
import { listContactExportsQuerySchema } from './schemas';

/** The account's exports, newest first (expired ones for a week after their file was deleted). */
export const listContactExports = defineVerb({
  scope: 'contacts:read',
  input: listContactExportsQuerySchema,
  async run({ db, principal, config }, query) {
    return paginate(db, {
      table: contactExports,
      idColumn: contactExports.id,
      where: eq(contactExports.accountId, principal.targetAccountId),
      query,
      map: (rows: ContactExportRow[]) => rows.map((row) => presentContactExport(row, config.publicUrl)),
    });
  },
});
