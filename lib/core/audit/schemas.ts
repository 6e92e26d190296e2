import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

export const AUDIT_ACTOR_TYPES = ['api_key', 'user', 'smtp_credential', 'operator', 'system'] as const;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = (max: number, description: string) =>
  z.preprocess(emptyToUndefined, z.string().max(max, `must be at most ${max} characters`).optional()).openapi({
    description,
  });
const timestamp = (description: string) =>
  z
    .preprocess(
      emptyToUndefined,
      z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' }).optional(),
    )
    .openapi({ description });

/** `domain.create`, or a family `domain.*`: a resource and a verb (or `*`), in snake_case. */
const ACTION = /^[a-z][a-z0-9_]*\.([a-z][a-z0-9_]*|\*)$/;

export const listAuditEventsQuerySchema = pageQuerySchema.extend({
  actor_type: z
    .preprocess(
      emptyToUndefined,
      z.enum(AUDIT_ACTOR_TYPES, { error: `must be one of ${AUDIT_ACTOR_TYPES.join(', ')}` }).optional(),
    )
    .openapi({ description: 'Only events by this kind of actor.' }),
  actor_id: optionalText(255, 'Only events by this actor (an API key, user or SMTP credential id).'),
  action: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .max(100, 'must be at most 100 characters')
        .regex(ACTION, 'must be an action such as domain.create, or a family such as domain.*')
        .optional(),
    )
    .openapi({ description: 'An action (`domain.create`), or every action of a resource (`domain.*`).' }),
  resource_type: optionalText(100, 'Only events about this kind of resource (`domain`, `api_key` ...).'),
  resource_id: optionalText(255, 'Only events about this resource.'),
  from_time: timestamp('Events at or after this time (RFC 3339).'),
  to_time: timestamp('Events before this time (RFC 3339).'),
});

export const auditEventSchema = z
  .object({
    object: z.literal('audit_event'),
    id: z.string(),
    occurred_at: z.string(),
    account_id: z.string(),
    actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string().nullable(), label: z.string().nullable() }),
    action: z.string(),
    resource: z.object({ type: z.string(), id: z.string().nullable() }),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
    changes: z.array(z.string()),
  })
  .openapi('AuditEvent');

export type AuditEvent = z.output<typeof auditEventSchema>;
