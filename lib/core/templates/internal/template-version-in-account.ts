import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { templateVersions } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import type { TemplateVersionRow } from './present';
import { getTemplateInAccount } from './queries';

/** A published version of a template of the account, whether or not the template was deleted since. */
export async function findTemplateVersion(
  db: DbOrTx,
  accountId: string,
  templateId: string,
  version: number,
): Promise<TemplateVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(templateVersions.accountId, accountId),
        eq(templateVersions.templateId, templateId),
        eq(templateVersions.version, version),
      ),
    )
    .limit(1);
  return row;
}

/** A published version of a template of the account that is not deleted, or 404. */
export async function getTemplateVersionInAccount(
  db: DbOrTx,
  accountId: string,
  templateId: string,
  version: number,
): Promise<TemplateVersionRow> {
  const template = await getTemplateInAccount(db, accountId, templateId);
  const row = await findTemplateVersion(db, accountId, template.id, version);
  if (!row) throw notFound(`template ${template.id} has no version ${version}`);
  return row;
}
