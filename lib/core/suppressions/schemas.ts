import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

export const SUPPRESSION_KINDS = ['bounce', 'complaint', 'manual', 'protected'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' });
const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
const domainQuery = (description: string) =>
  optionalQuery(z.string().max(300, 'is longer than 253 characters')).openapi({ description });

export const createSuppressionSchema = z
  .object({
    email: z.string({ error: 'is required' }).max(320, 'must be at most 320 characters'),
    expires_at: rfc3339,
    domain: z
      .string()
      .max(300, 'is longer than 253 characters')
      .nullish()
      .openapi({ description: 'A domain of the account; omitted (or empty), the suppression covers all of them.' }),
    reason: z.string().max(255, 'must be at most 255 characters').nullish(),
  })
  .openapi('CreateSuppressionRequest');

export const listSuppressionsQuerySchema = pageQuerySchema.extend({
  domain: domainQuery('Only suppressions of this domain (not those covering all domains). An unknown domain is 404.'),
  email: optionalQuery(z.string().max(320, 'must be at most 320 characters')),
  from_time: optionalQuery(rfc3339).openapi({ description: 'Created at or after this time.' }),
  to_time: optionalQuery(rfc3339).openapi({ description: 'Created at or before this time.' }),
});

export const deleteSuppressionQuerySchema = z.object({
  email: z.preprocess(emptyToUndefined, z.string({ error: 'is required' }).max(320, 'must be at most 320 characters')),
  domain: domainQuery('Only the suppression of this domain; omitted, every suppression of the address.'),
});

export const wipeSuppressionsQuerySchema = z.object({
  domain: domainQuery('Only the suppressions of this domain. An unknown domain is 404.'),
});

export const suppressionSchema = z
  .object({
    object: z.literal('suppression'),
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    email: z.string(),
    domain: z.string().nullable().openapi({ description: 'Null: the suppression covers every domain of the account.' }),
    reason: z.string().nullable(),
    expires_at: z.string().datetime(),
    kind: z.enum(SUPPRESSION_KINDS).openapi({
      description:
        'What made it: a hard bounce, a complaint, a person (manual) or the operator (protected). Mailstead extension.',
    }),
  })
  .openapi('Suppression');

export const createSuppressionResponseSchema = z
  .object({ object: z.literal('list'), data: z.array(suppressionSchema) })
  .openapi('CreateSuppressionResponse');
