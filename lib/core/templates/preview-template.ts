import { contentColumns, EMPTY_CONTENT } from '@/lib/core/content/content-columns';
import { withPreheader } from '@/lib/core/content/preheader';
import { renderContents } from '@/lib/core/messages/render-content';
import { defineVerb } from '@/lib/core/verb';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { checkTemplateSyntax } from './internal/check-template-syntax';
import { previewTemplateSchema } from './schemas';

/** One preview may render for this long in all; each part also has the renderer's own limits. */
const PREVIEW_BUDGET_MS = 2_000;

/**
 * Renders a draft as typed, saved or not, with sample substitutions, exactly as a send would: in the
 * render workers under their limits, HTML escaped. Reading, not writing, so `templates:read`. A syntax
 * error is a 400 naming the field and the line; a render error or limit names the field.
 */
export const previewTemplate = defineVerb({
  scope: 'templates:read',
  input: previewTemplateSchema,
  async run({ renderer, config }, input) {
    checkTemplateSyntax(input);
    // A markdown or blocks source is rendered as a save would, then substituted as a send would.
    const content = { ...EMPTY_CONTENT, ...(await contentColumns(input, EMPTY_CONTENT, config)) };
    const parts = {
      subject: input.subject ?? '',
      html: withPreheader(content.htmlContent, content.preheader),
      text: content.textContent,
      amp: null,
    };
    let result;
    try {
      [result] = await renderContents(renderer, [{ parts, context: input.substitutions ?? {} }], {
        stopOnError: true,
        budgetMs: PREVIEW_BUDGET_MS,
      });
    } catch {
      throw new AppError('unavailable', 'templates cannot be rendered right now; try again later');
    }
    if (!result.ok) {
      const { failure } = result;
      // A text part made from the HTML fails where the HTML does: the author wrote the HTML.
      const field = result.field === 'text_content' && content.textGenerated ? 'html_content' : result.field;
      const kind = failure.kind === 'syntax' ? 'template syntax error' : 'template error';
      throw invalidInput(`${field}: ${kind}: ${failure.message}`, field.split(',')[0]);
    }
    return {
      object: 'template_preview' as const,
      subject: input.subject ? result.parts.subject : null,
      html_content: result.parts.html,
      text_content: result.parts.text,
    };
  },
});

export type TemplatePreviewObject = Awaited<ReturnType<typeof previewTemplate>>;
