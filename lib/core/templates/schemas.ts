import { contentFormatOutputShape, contentFormatShape } from '@/lib/core/content/schemas';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

/** Inputs and outputs of the templates API (marketing-api.md, Templates), shared with the dashboard's forms. */

export const TEMPLATE_KINDS = ['transactional', 'campaign'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
/** The send API's subject limit, so that every published subject can be sent. */
export const MAX_SUBJECT_CHARS = 2000;
/** Per body part: far above any real email, low enough that one draft cannot fill the database. */
export const MAX_CONTENT_CHARS = 1_000_000;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const nameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');
const kindSchema = z.enum(TEMPLATE_KINDS, { error: 'must be transactional or campaign' });
const subjectSchema = z
  .string({ error: 'must be a string' })
  .max(MAX_SUBJECT_CHARS, `must be at most ${MAX_SUBJECT_CHARS} characters`)
  .nullish()
  .openapi({ description: 'A Jinja template, like the send API\'s subject with substitutions. null or "" clears it.' });
const contentSchema = (part: string) =>
  z
    .string({ error: 'must be a string' })
    .max(MAX_CONTENT_CHARS, `must be at most ${MAX_CONTENT_CHARS} characters`)
    .nullish()
    .openapi({ description: `The ${part} body, a Jinja template (\`{{ first_name }}\`). null or "" clears it.` });

export const templateIdSchema = z.string({ error: 'must be a string' });

export const createTemplateSchema = z
  .object({
    name: nameSchema,
    kind: kindSchema.default('transactional').openapi({ description: 'transactional (the default) or campaign.' }),
    subject: subjectSchema,
    html_content: contentSchema('HTML'),
    text_content: contentSchema('plain-text'),
    ...contentFormatShape,
  })
  .openapi('CreateTemplateRequest');

export const updateTemplateSchema = z
  .object({
    name: nameSchema.optional(),
    kind: kindSchema.optional(),
    subject: subjectSchema,
    html_content: contentSchema('HTML'),
    text_content: contentSchema('plain-text'),
    ...contentFormatShape,
    revision: z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .optional()
      .openapi({
        description:
          'Optional guard: the revision the edit is based on; if the draft has changed since, the answer is 409 and nothing changes.',
      }),
  })
  .openapi('UpdateTemplateRequest');
export type UpdateTemplateInput = z.input<typeof updateTemplateSchema>;

export const templatePathSchema = z.object({ template_id: templateIdSchema });

export const versionPathSchema = z.object({
  template_id: templateIdSchema,
  version: z.coerce
    .number({ error: 'must be a positive integer' })
    .int('must be a positive integer')
    .min(1, 'must be a positive integer')
    .max(2_147_483_647, 'must be a positive integer'),
});

export const listTemplatesQuerySchema = pageQuerySchema.extend({
  kind: z.preprocess(emptyToUndefined, kindSchema.optional()).openapi({ description: 'Only templates of this kind.' }),
});

export const listTemplateVersionsQuerySchema = pageQuerySchema.extend({ template_id: templateIdSchema });

/** The editor's preview: parts as typed (saved or not) and the sample values to render them with. */
export const previewTemplateSchema = z.object({
  subject: subjectSchema,
  html_content: contentSchema('HTML'),
  text_content: contentSchema('plain-text'),
  ...contentFormatShape,
  substitutions: z.record(z.string(), z.unknown(), { error: 'must be an object of names and values' }).nullish(),
});
export type PreviewTemplateInput = z.input<typeof previewTemplateSchema>;

export const templateSchema = z
  .object({
    object: z.literal('template'),
    id: z.string().uuid(),
    name: z.string(),
    kind: z.enum(TEMPLATE_KINDS),
    subject: z.string().nullable(),
    html_content: z.string().nullable(),
    text_content: z.string().nullable(),
    ...contentFormatOutputShape,
    text_generated: z.boolean().openapi({
      description: 'text_content was made from the body (none was given): it is made again as the body changes.',
    }),
    latest_version: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The latest published version, or null before the first publish.' }),
    revision: z.number().int().openapi({ description: 'Bumped by every change of the draft, publishing included.' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('Template');

export const templateVersionSchema = z
  .object({
    object: z.literal('template_version'),
    template_id: z.string().uuid(),
    version: z.number().int(),
    subject: z.string(),
    html_content: z.string().nullable(),
    text_content: z.string().nullable(),
    ...contentFormatOutputShape,
    created_at: z.string().datetime(),
  })
  .openapi('TemplateVersion');
