import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_FLAGS, type WebhookFlag } from './fan-out';

export const webhookIdSchema = z.string().uuid('invalid webhook_id');
export const deliveryIdSchema = z.string().uuid('invalid delivery_id');

/** A receiver's name and URL, webhooks' and routes' alike. */
export const nameSchema = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** Syntax only; the scheme allowed and where the host points are checked with the configuration (check-webhook-url.ts). */
export const urlSchema = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    'must be an absolute https:// URL',
  )
  .openapi({ format: 'uri' });

const domainsSchema = z.array(z.string().max(300, 'domain is too long')).max(100, 'must hold at most 100 domains');

const SCOPES = ['global', 'scoped'] as const;
const scopeError = { error: 'must be "global" or "scoped"' };

const EXTENSION_FLAGS: Partial<Record<WebhookFlag, string>> = {
  on_complained:
    'message.complained: a complaint report (ARF) about a message arrived. Mailstead extension; default false.',
};

/** One schema per event flag; the flags beyond the AhaSend contract say so in the OpenAPI document. */
const flags = <T extends z.ZodType>(make: (flag: WebhookFlag) => T) =>
  Object.fromEntries(
    WEBHOOK_FLAGS.map((flag) => [
      flag,
      EXTENSION_FLAGS[flag] ? make(flag).openapi({ description: EXTENSION_FLAGS[flag] }) : make(flag),
    ]),
  ) as Record<WebhookFlag, T>;

export const createWebhookSchema = z
  .object({
    name: nameSchema,
    url: urlSchema,
    // The official CLI sends `"scope": ""` when none is chosen: that is a global webhook.
    scope: z.preprocess((value) => (value === '' ? 'global' : value), z.enum(SCOPES, scopeError)),
    domains: domainsSchema
      .nullish()
      .openapi({ description: 'Required and non-empty when scope is scoped; ignored when global.' }),
    enabled: z.boolean().default(true),
    ...flags(() => z.boolean().default(false)),
  })
  .superRefine((value, ctx) => {
    if (value.scope === 'scoped' && !value.domains?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['domains'],
        message: 'is required and must not be empty when scope is "scoped"',
      });
  })
  .openapi('CreateWebhookRequest');

export const updateWebhookSchema = z
  .object({
    name: nameSchema.nullish(),
    url: urlSchema.nullish(),
    // Empty, null or omitted: unchanged.
    scope: z.preprocess((value) => (value === '' ? undefined : value), z.enum(SCOPES, scopeError).nullish()),
    domains: domainsSchema.nullish().openapi({
      description: 'Omitted or null keeps the domains; an array replaces them (a scoped webhook needs at least one).',
    }),
    enabled: z
      .boolean()
      .nullish()
      .openapi({ description: 'true also clears an automatic disable and its run of failures.' }),
    ...flags(() => z.boolean().nullish()),
  })
  .openapi('UpdateWebhookRequest');

const booleanQuery = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
);

export const listWebhooksQuerySchema = pageQuerySchema.extend({ enabled: booleanQuery, ...flags(() => booleanQuery) });

export const webhookPathSchema = z.object({ webhook_id: webhookIdSchema });

/** How a receiver (a webhook or a route) has been answering the outbox's deliveries. */
export function deliveryHealthFields(noun: 'webhook' | 'route') {
  return {
    success_count: z.number().int(),
    error_count: z.number().int(),
    errors_since_last_success: z.number().int(),
    last_request_at: z.string().datetime().nullable(),
    disabled_reason: z
      .string()
      .nullable()
      .openapi({
        description: `Why Mailstead disabled the ${noun} by itself (a run of failed deliveries); null otherwise (Mailstead extension).`,
      }),
    disabled_at: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: `When Mailstead disabled the ${noun} by itself; null otherwise (Mailstead extension).` }),
  };
}

export const webhookSchema = z
  .object({
    object: z.literal('webhook'),
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    name: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    ...flags(() => z.boolean()),
    scope: z.enum(SCOPES),
    domains: z.array(z.string()),
    ...deliveryHealthFields('webhook'),
  })
  .openapi('Webhook');

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z.string().openapi({
      description: 'Signing secret, shown only in this response. The HMAC key is the UTF-8 bytes of the whole string.',
    }),
  })
  .openapi('CreatedWebhook');

export const triggerWebhookSchema = z
  .object({
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
      .min(1, 'must name at least one event type')
      .max(20, 'must hold at most 20 event types'),
  })
  .openapi('TriggerWebhookRequest');

export const triggerWebhookResponseSchema = z
  .object({
    message: z.string(),
    data: z.array(
      z.object({
        id: z.string().uuid().openapi({ description: 'The delivery, also sent as the webhook-id header.' }),
        event_type: z.string(),
        status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
        response_status: z.number().int().nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .openapi('TriggerWebhookResponse');

export const listDeliveriesQuerySchema = pageQuerySchema.extend({ webhook_id: webhookIdSchema });
export const deliveryPathSchema = z.object({ webhook_id: webhookIdSchema, delivery_id: deliveryIdSchema });
