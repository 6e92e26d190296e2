import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { contentColumns, type ContentColumns } from '@/lib/core/content/content-columns';
import { defineVerb } from '@/lib/core/verb';
import { templates } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { checkTemplateSyntax } from './internal/check-template-syntax';
import { presentTemplate } from './internal/present';
import { writeTemplate } from './internal/queries';
import { templatePathSchema, updateTemplateSchema } from './schemas';

/**
 * Edits the draft; omitted fields stay, null or "" clears a part. Published versions never change.
 * With `revision`, the edit applies only to that revision of the draft (409 otherwise), so an editor
 * cannot overwrite a change it has not seen.
 */
export const updateTemplate = defineVerb({
  scope: 'templates:write',
  input: updateTemplateSchema.extend(templatePathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    checkTemplateSyntax(input);
    return writeTemplate(db, principal.targetAccountId, input.template_id, async (tx, current) => {
      if (input.revision !== undefined && input.revision !== current.revision) {
        throw conflict(
          `revision: the draft is at revision ${current.revision}, not ${input.revision}; reload it and edit again`,
          'revision',
        );
      }
      const [row] = await tx
        .update(templates)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.kind !== undefined ? { kind: input.kind } : {}),
          ...(input.subject !== undefined ? { subject: input.subject || null } : {}),
          ...(await contentColumns(input, current as ContentColumns, config)),
          revision: current.revision + 1,
          updatedAt: now(),
        })
        .where(eq(templates.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'template.update',
        resource: { type: 'template', id: current.id },
        changes: givenFields(input, ['template_id']),
      });
      return presentTemplate(row!);
    });
  },
});
