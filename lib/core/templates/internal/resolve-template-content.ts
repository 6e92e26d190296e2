import { withPreheader } from '@/lib/core/content/preheader';
import type { DbOrTx } from '@/lib/db/client';
import { AppError, invalidInput } from '@/lib/shared/errors';
import type { TemplateVersionRow } from './present';
import { getTemplateInAccount } from './queries';
import { findTemplateVersion, getTemplateVersionInAccount } from './template-version-in-account';

export type TemplateContent = {
  subject: string;
  html_content: string | null;
  text_content: string | null;
  version: number;
};

const contentOf = (row: TemplateVersionRow, version: number): TemplateContent => ({
  subject: row.subject,
  html_content: withPreheader(row.htmlContent, row.preheader),
  text_content: row.textContent,
  version,
});

/**
 * The content a send with `template_id` uses: the given published version, or the latest. Sending is
 * never of a draft. Any failure is the send's 400 naming `template_id` or `template_version`: the
 * send body is what is wrong, whether the template is unknown, another account's or unpublished.
 */
export async function resolveTemplateContent(
  db: DbOrTx,
  accountId: string,
  templateId: string,
  version?: number | null,
): Promise<TemplateContent> {
  try {
    const template = await getTemplateInAccount(db, accountId, templateId);
    if (template.latestVersion === 0)
      throw invalidInput(
        `template_id: template ${template.id} has no published version; publish it first`,
        'template_id',
      );
    const number = version ?? template.latestVersion;
    if (number > template.latestVersion)
      throw invalidInput(
        `template_version: template ${template.id} has no version ${number} (latest is ${template.latestVersion})`,
        'template_version',
      );
    return contentOf(await getTemplateVersionInAccount(db, accountId, template.id, number), number);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'not_found')
      throw invalidInput(`template_id: no template ${templateId} in this account`, 'template_id');
    throw error;
  }
}

/**
 * A version a sending campaign has pinned, even if its template was deleted since: deleting a
 * template keeps its published versions for this (delete-template.ts), so a campaign or an A/B
 * test already under way goes on with what it started with instead of stopping half-sent.
 */
export async function resolvePinnedTemplateContent(
  db: DbOrTx,
  accountId: string,
  templateId: string,
  version: number,
): Promise<TemplateContent> {
  const row = await findTemplateVersion(db, accountId, templateId, version);
  return row ? contentOf(row, version) : resolveTemplateContent(db, accountId, templateId, version);
}
