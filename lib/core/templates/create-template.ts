import { defineVerb } from '@/lib/core/verb';
import { templates } from '@/lib/db/schema';
import { checkTemplateSyntax } from './check-template-syntax';
import { presentTemplate } from './present';
import { createTemplateSchema } from './schemas';

/** A new template: a draft, not yet sendable. Parts may be missing until publishing, but what is there must compile. */
export const createTemplate = defineVerb({
  scope: 'templates:write',
  input: createTemplateSchema,
  async run({ db, principal, now }, input) {
    checkTemplateSyntax(input);
    const at = now();
    const [row] = await db
      .insert(templates)
      .values({
        accountId: principal.targetAccountId,
        name: input.name,
        kind: input.kind,
        subject: input.subject || null,
        htmlContent: input.html_content || null,
        textContent: input.text_content || null,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return presentTemplate(row!);
  },
});
