import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';
import { deliveryHealthFields, deliveryIdSchema, nameSchema, urlSchema } from '@/lib/core/webhooks/schemas';
import { recipientSyntaxError } from './internal/recipient-syntax';

export const routeIdSchema = z.string().uuid('invalid route_id');

/** The pattern's syntax (browser-safe, for the form); that its domain is the account's is checked with the database (queries.ts). */
const recipientSchema = z
  .string()
  .max(255, 'must be at most 255 characters')
  .superRefine((value, ctx) => {
    const reason = recipientSyntaxError(value);
    if (reason) ctx.addIssue({ code: 'custom', message: `is not a recipient pattern: ${reason}` });
  })
  .openapi({
    description:
      'An address pattern: `support@example.com`, `*@example.com`, `ticket-*@example.com`; `""` or `*` means no filter (every domain of the account). The domain must be one of the account\'s.',
  });

export const createRouteSchema = z
  .object({
    name: nameSchema,
    url: urlSchema,
    recipient: recipientSchema,
    attachments: z.boolean().default(false),
    headers: z.boolean().default(false),
    group_by_message_id: z.boolean().default(false),
    strip_replies: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .openapi('CreateRouteRequest');

export const updateRouteSchema = z
  .object({
    name: nameSchema.nullish(),
    url: urlSchema.nullish(),
    recipient: recipientSchema
      .nullish()
      .openapi({ description: 'null or omitted: unchanged; `""` clears the filter.' }),
    attachments: z.boolean().nullish(),
    headers: z.boolean().nullish(),
    group_by_message_id: z.boolean().nullish(),
    strip_replies: z.boolean().nullish(),
    enabled: z
      .boolean()
      .nullish()
      .openapi({ description: 'true also clears an automatic disable and its run of failures.' }),
  })
  .openapi('UpdateRouteRequest');

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const listRoutesQuerySchema = pageQuerySchema.extend({
  domain: z
    .preprocess(emptyToUndefined, z.string().max(300, 'domain is too long').optional())
    .openapi({ description: 'Only routes for this domain; required with a domain-scoped key.' }),
});

export const routePathSchema = z.object({ route_id: routeIdSchema });

export const routeSchema = z
  .object({
    object: z.literal('route'),
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    name: z.string(),
    url: z.string(),
    recipient: z.string(),
    attachments: z.boolean(),
    headers: z.boolean(),
    group_by_message_id: z.boolean(),
    strip_replies: z.boolean(),
    enabled: z.boolean(),
    ...deliveryHealthFields('route'),
  })
  .openapi('Route');

export const createdRouteSchema = routeSchema
  .extend({
    secret: z.string().openapi({
      description: 'Signing secret, shown only in this response. The HMAC key is the UTF-8 bytes of the whole string.',
    }),
  })
  .openapi('CreatedRoute');

/** The CLI sends `{}`; nothing is read from the body. */
export const triggerRouteSchema = z.object({}).openapi('TriggerRouteRequest');

/** A route's delivery log (dashboard, /internal): the webhook outbox's rows for this route. */
export const listRouteDeliveriesQuerySchema = pageQuerySchema.extend({ route_id: routeIdSchema });
export const routeDeliveryPathSchema = z.object({ route_id: routeIdSchema, delivery_id: deliveryIdSchema });
