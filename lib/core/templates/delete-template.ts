import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { templates } from '@/lib/db/schema';
import { writeTemplate } from './internal/queries';
import { templatePathSchema } from './schemas';

/**
 * The template is 404 from now on and can no longer be sent, but its published versions are kept
 * (a campaign may have frozen one). Mail already accepted carries its own copy of the content.
 */
export const deleteTemplate = defineVerb({
  scope: 'templates:delete',
  input: templatePathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    return writeTemplate(db, principal.targetAccountId, input.template_id, async (tx, current) => {
      const at = now();
      await tx
        .update(templates)
        .set({ deletedAt: at, updatedAt: at, revision: current.revision + 1 })
        .where(eq(templates.id, current.id));
      await recordAuditEvent(tx, ctx, { action: 'template.delete', resource: { type: 'template', id: current.id } });
      return { message: `template ${current.id} (${current.name}) deleted` };
    });
  },
});
