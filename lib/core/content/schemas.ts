import { z } from '@/lib/core/zod';
import { blocksDocumentSchema } from './blocks-document';
import { MAX_PREHEADER_CHARS } from './preheader';

/** The content format fields every body with content takes (marketing-api.md, Content formats). */

export const CONTENT_FORMATS = ['html', 'markdown', 'blocks'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];
/** As html_content's limit: far above any real email. */
export const MAX_MARKDOWN_CHARS = 1_000_000;

const formatSchema = z.enum(CONTENT_FORMATS, { error: 'must be html, markdown or blocks' });

export const contentFormatShape = {
  format: formatSchema.optional().openapi({
    description:
      'How the body is written: `html` (the default, `html_content`), `markdown` (`markdown_content`) or `blocks` (`blocks_content`). With markdown or blocks the server renders `html_content` (responsive, CSS inlined) and, unless `text_content` is given, `text_content`.',
  }),
  markdown_content: z
    .string({ error: 'must be a string' })
    .max(MAX_MARKDOWN_CHARS, `must be at most ${MAX_MARKDOWN_CHARS} characters`)
    .nullish()
    .openapi({
      description: 'With `format: "markdown"`: the body in Markdown, a Jinja template. null or "" clears it.',
    }),
  blocks_content: blocksDocumentSchema
    .nullish()
    .openapi({ description: 'With `format: "blocks"`: the visual editor\'s document. null clears it.' }),
  preheader: z
    .string({ error: 'must be a string' })
    .max(MAX_PREHEADER_CHARS, `must be at most ${MAX_PREHEADER_CHARS} characters`)
    .nullish()
    .openapi({
      description:
        'The preview text inboxes show after the subject, a Jinja template, in every format; sent hidden at the top of the HTML body. null or "" clears it.',
    }),
};
export type ContentFormatInput = {
  format?: ContentFormat;
  html_content?: string | null;
  text_content?: string | null;
  markdown_content?: string | null;
  /** The parsed document (blocksDocumentSchema's output). */
  blocks_content?: unknown;
  preheader?: string | null;
};

export const contentFormatOutputShape = {
  format: formatSchema,
  markdown_content: z.string().nullable(),
  blocks_content: blocksDocumentSchema.nullable(),
  preheader: z.string().nullable(),
};
