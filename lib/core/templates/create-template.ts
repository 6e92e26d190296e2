import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { contentColumns, EMPTY_CONTENT } from '@/lib/core/content/content-columns';
import { defineVerb } from '@/lib/core/verb';
import { templates } from '@/lib/db/schema';
import { checkTemplateSyntax } from './internal/check-template-syntax';
import { presentTemplate } from './internal/present';
import { createTemplateSchema } from './schemas';

/** A new template: a draft, not yet sendable. Parts may be missing until publishing, but what is there must compile. */
export const createTemplate = defineVerb({
  scope: 'templates:write',
  input: createTemplateSchema,
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    checkTemplateSyntax(input);
    const content = { ...EMPTY_CONTENT, ...(await contentColumns(input, EMPTY_CONTENT, config)) };
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(templates)
        .values({
          accountId: principal.targetAccountId,
          name: input.name,
          kind: input.kind,
          subject: input.subject || null,
          ...content,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'template.create', resource: { type: 'template', id: changed!.id } });
      return changed;
    });
    return presentTemplate(row!);
  },
});
