import { withPreheader } from '@/lib/core/content/preheader';
import type { DbOrTx } from '@/lib/db/client';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { getTemplateInAccount } from './queries';
import { getTemplateVersionInAccount } from './template-version-in-account';

export type TemplateContent = {
  subject: string;
  html_content: string | null;
  text_content: string | null;
  version: number;
};

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
    const row = await getTemplateVersionInAccount(db, accountId, template.id, number);
    return {
      subject: row.subject,
      html_content: withPreheader(row.htmlContent, row.preheader),
      text_content: row.textContent,
      version: number,
    };
  } catch (error) {
    if (error instanceof AppError && error.kind === 'not_found')
      throw invalidInput(`template_id: no template ${templateId} in this account`, 'template_id');
    throw error;
  }
}
