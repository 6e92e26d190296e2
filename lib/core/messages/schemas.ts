import { z } from '@/lib/core/zod';
import { pageQuerySchema } from '@/lib/core/shared/pagination';

const SANDBOX_RESULTS = ['deliver', 'bounce', 'defer', 'fail', 'suppress'] as const;

const emailString = z.string().trim().max(320, 'must be at most 320 characters');
const nameString = z.string().max(256, 'must be at most 256 characters').nullish();
const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' });

export const addressSchema = z.object({ email: emailString, name: nameString });

export const attachmentSchema = z.object({
  data: z.string(),
  base64: z.boolean().nullish(),
  file_name: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  content_type: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  content_id: z.string().max(255, 'must be at most 255 characters').nullish(),
  content_disposition: z.enum(['attachment', 'inline']).nullish(),
});

const substitutionsSchema = z.record(z.string(), z.unknown()).nullish();

/** Fields both send shapes share (single message per recipient, and conversation). */
export const messageOptionsShape = {
  subject: z.string({ error: 'is required' }).max(2000, 'must be at most 2000 characters'),
  text_content: z.string().nullish(),
  html_content: z.string().nullish(),
  amp_content: z.string().nullish(),
  attachments: z.array(attachmentSchema).max(100, 'must hold at most 100 attachments').nullish(),
  headers: z
    .record(
      z.string().max(200, 'header names are at most 200 characters'),
      z.string().max(4000, 'header values are at most 4000 characters'),
    )
    .nullish(),
  reply_to: addressSchema.nullish(),
  tags: z
    .array(z.string().trim().min(1, 'tags must not be empty').max(64, 'tags are at most 64 characters'))
    .max(20, 'must hold at most 20 tags')
    .nullish(),
  sandbox: z.boolean().nullish(),
  sandbox_result: z.enum(SANDBOX_RESULTS, { error: `must be one of ${SANDBOX_RESULTS.join(', ')}` }).nullish(),
  tracking: z.object({ open: z.boolean().nullish(), click: z.boolean().nullish() }).nullish(),
  retention: z
    .object({
      metadata: z
        .number()
        .int('must be whole days')
        .min(1, 'must be between 1 and 30 days')
        .max(30, 'must be between 1 and 30 days')
        .nullish(),
      data: z
        .number()
        .int('must be whole days')
        .min(0, 'must be between 0 and 30 days')
        .max(30, 'must be between 0 and 30 days')
        .nullish(),
    })
    .nullish(),
  schedule: z.object({ first_attempt: rfc3339.nullish(), expires: rfc3339.nullish() }).nullish(),
};

export const sendMessageSchema = z
  .object({
    from: addressSchema,
    recipients: z
      .array(addressSchema.extend({ substitutions: substitutionsSchema }))
      .min(1, 'must hold at least one recipient')
      .max(100, 'must hold at most 100 recipients'),
    substitutions: substitutionsSchema,
    ...messageOptionsShape,
    subject: messageOptionsShape.subject.optional().openapi({ description: 'Required unless template_id is given.' }),
    template_id: z.string({ error: 'must be a template id' }).max(100, 'must be a template id').nullish().openapi({
      description:
        'Mailstead extension: send a published template instead of subject and content; substitutions render it as they render inline content.',
    }),
    template_version: z
      .number({ error: 'must be a positive integer' })
      .int('must be a positive integer')
      .min(1, 'must be a positive integer')
      .max(2_147_483_647, 'must be a positive integer')
      .nullish()
      .openapi({ description: 'The published version of template_id to send; default the latest.' }),
  })
  .superRefine((value, ctx) => {
    if (value.template_id == null) {
      if (value.template_version != null)
        ctx.addIssue({ code: 'custom', path: ['template_version'], message: 'is only allowed with template_id' });
      if (value.subject === undefined) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'is required' });
      return;
    }
    const inline = (['subject', 'html_content', 'text_content', 'amp_content'] as const).filter(
      (field) => value[field] != null,
    );
    if (inline.length)
      ctx.addIssue({
        code: 'custom',
        path: ['template_id'],
        message: `give either template_id or ${inline.join(', ')}, not both: the template holds the subject and content`,
      });
  })
  .openapi('CreateMessageRequest');

export type SendMessageInput = z.output<typeof sendMessageSchema>;

const createdMessageSchema = z
  .object({
    object: z.literal('message'),
    id: z.string().nullable(),
    recipient: z.object({ email: z.string(), name: z.string() }),
    status: z.enum(['queued', 'scheduled', 'error']),
    error: z.string().nullable(),
    schedule: z.object({ first_attempt: z.string().optional(), expires: z.string().optional() }).optional(),
  })
  .openapi('CreateSingleMessageResponse');

export const createMessageResponseSchema = z
  .object({ object: z.literal('list'), data: z.array(createdMessageSchema) })
  .openapi('CreateMessageResponse');

const deliveryEventSchema = z.object({ time: z.string(), log: z.string(), status: z.string() });

export const messageSummarySchema = z
  .object({
    object: z.literal('message'),
    id: z.string().uuid(),
    message_id: z.string(),
    account_id: z.string().uuid(),
    domain_id: z.string().uuid(),
    created_at: z.string(),
    updated_at: z.string(),
    sent_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    retain_until: z.string(),
    direction: z.enum(['inbound', 'outbound']),
    is_bounce_notification: z.boolean(),
    bounce_classification: z.string().nullable(),
    delivery_attempts: z.array(deliveryEventSchema),
    subject: z.string().openapi({ description: 'The subject this recipient received, substitutions rendered.' }),
    tags: z.array(z.string()),
    sender: z.string(),
    recipient: z.string(),
    status: z.string(),
    num_attempts: z.number().int(),
    click_count: z.number().int(),
    open_count: z.number().int(),
    reference_message_id: z.number().int().nullable(),
    is_sandbox: z.boolean().openapi({ description: 'Mailstead extension.' }),
    campaign_id: z
      .string()
      .uuid()
      .nullable()
      .openapi({ description: 'Mailstead extension: the campaign the message belongs to, if any.' }),
    scheduled_for: z.string().nullable().openapi({
      description:
        'Mailstead extension: when a scheduled message (status Received, not yet attempted) is due to go; null otherwise.',
    }),
  })
  .openapi('MessageSummary');

export const messageSchema = messageSummarySchema
  .extend({
    content: z.string().optional(),
    content_parsed: z
      .object({
        parts: z.array(z.object({ content_type: z.string(), content: z.string() })),
        attachments: z.array(
          z.object({ filename: z.string(), content: z.string(), content_type: z.string(), content_id: z.string() }),
        ),
        headers: z.record(z.string(), z.array(z.string())),
      })
      .optional(),
  })
  .openapi('Message');

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const listMessagesQuerySchema = pageQuerySchema.extend({
  status: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  sender: z.preprocess(emptyToUndefined, z.string().max(320).optional()),
  recipient: z.preprocess(emptyToUndefined, z.string().max(320).optional()),
  subject: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  message_id_header: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  tags: z.preprocess(emptyToUndefined, z.string().max(2000).optional()),
  from_time: z.preprocess(emptyToUndefined, rfc3339.optional()),
  to_time: z.preprocess(emptyToUndefined, rfc3339.optional()),
  campaign_id: z
    .preprocess(emptyToUndefined, z.string().uuid('must be a campaign id').optional())
    .openapi({ description: 'Mailstead extension: only the messages of this campaign.' }),
});

export const messageIdParamSchema = z.object({ message_id: z.string().min(1).max(400) });
