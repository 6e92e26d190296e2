import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { templates, templateVersions } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { checkTemplateSyntax } from './internal/check-template-syntax';
import { presentTemplateVersion } from './internal/present';
import { writeTemplate } from './internal/queries';
import { templatePathSchema } from './schemas';

/**
 * Freezes the draft as the next version (1, 2, ...). Under the template's row lock, so concurrent
 * publishes get consecutive numbers; the (template, version) key would refuse a duplicate anyway.
 * A version must be sendable: a subject and an HTML or text body.
 */
export const publishTemplate = defineVerb({
  scope: 'templates:write',
  input: templatePathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    return writeTemplate(db, principal.targetAccountId, input.template_id, async (tx, current) => {
      if (!current.subject)
        throw invalidInput('subject: the draft has no subject; add one before publishing', 'subject');
      if (!current.htmlContent && !current.textContent)
        throw invalidInput(
          'html_content: the draft has no html_content or text_content; add one before publishing',
          'html_content',
        );
      // Drafts were checked when written; checked again in case the rules have grown since.
      checkTemplateSyntax({
        subject: current.subject,
        html_content: current.htmlContent,
        text_content: current.textContent,
        preheader: current.preheader,
      });
      const at = now();
      const version = current.latestVersion + 1;
      const [row] = await tx
        .insert(templateVersions)
        .values({
          templateId: current.id,
          version,
          accountId: current.accountId,
          subject: current.subject,
          htmlContent: current.htmlContent,
          textContent: current.textContent,
          format: current.format,
          markdownContent: current.markdownContent,
          blocksContent: current.blocksContent,
          preheader: current.preheader,
          createdAt: at,
        })
        .returning();
      await tx
        .update(templates)
        .set({ latestVersion: version, revision: current.revision + 1, updatedAt: at })
        .where(eq(templates.id, current.id));
      await recordAuditEvent(tx, ctx, { action: 'template.publish', resource: { type: 'template', id: current.id } });
      return presentTemplateVersion(row!);
    });
  },
});
