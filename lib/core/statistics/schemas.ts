import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import { MAILBOX_PROVIDERS } from '@/lib/core/providers/classify-mailbox-provider';
import { z } from '@/lib/core/zod';

export const GROUP_BY = ['hour', 'day', 'week', 'month'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const MAX_LIST_ITEMS = { sender_domain: 50, recipient_domains: 100, tags: 20 } as const;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' });
const timestamp = (description: string) => z.preprocess(emptyToUndefined, rfc3339.optional()).openapi({ description });

/** The items of a comma-separated query value; empty items (`a,,b`, a trailing comma) are ignored. */
export function commaList(value: string | undefined): string[] {
  return value === undefined
    ? []
    : [
        ...new Set(
          value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ];
}

/** Domain names of a comma list, normalised as stored (lowercase A-labels); null when none were given. */
export function domainList(value: string | undefined): string[] | null {
  const names = commaList(value).map((item) => normalizeDomainName(item));
  const valid = names.filter((name) => name.ok).map((name) => name.domain);
  return valid.length ? [...new Set(valid)] : null;
}

const domainListSchema = (field: keyof typeof MAX_LIST_ITEMS, description: string) =>
  z
    .preprocess(emptyToUndefined, z.string().max(5000, 'is too long').optional())
    .superRefine((value, context) => {
      const items = commaList(value);
      if (items.length > MAX_LIST_ITEMS[field])
        context.addIssue({ code: 'custom', message: `at most ${MAX_LIST_ITEMS[field]} domains` });
      const invalid = items.find((item) => !normalizeDomainName(item).ok);
      if (invalid !== undefined)
        context.addIssue({ code: 'custom', message: `"${invalid.slice(0, 100)}" is not a valid domain name` });
    })
    .openapi({ description });

/**
 * The query of the three transactional reports. The legacy `from_date`/`to_date` (sent by older
 * SDKs) stand for `from_time`/`to_time` when those are absent; empty values are absent.
 */
export const statisticsQuerySchema = z.object({
  from_time: timestamp(
    'Statistics from this time (RFC 3339), rounded down to the hour. Default: 30 days before to_time.',
  ),
  to_time: timestamp('Statistics before this time (RFC 3339), rounded up to the hour. Default: now.'),
  from_date: timestamp('Legacy name of from_time.'),
  to_date: timestamp('Legacy name of to_time.'),
  sender_domain: domainListSchema(
    'sender_domain',
    'Comma-separated sender domains. A domain-scoped key must hold every one; without it, such a key sees its own domains.',
  ),
  recipient_domains: domainListSchema('recipient_domains', 'Comma-separated recipient domains.'),
  tags: z
    .preprocess(emptyToUndefined, z.string().max(2000, 'is too long').optional())
    .refine((value) => commaList(value).length <= MAX_LIST_ITEMS.tags, `at most ${MAX_LIST_ITEMS.tags} tags`)
    .openapi({ description: 'Comma-separated tags: messages carrying any of them (each counted once).' }),
  provider: z
    .preprocess(
      emptyToUndefined,
      z.enum(MAILBOX_PROVIDERS, { error: `must be one of ${MAILBOX_PROVIDERS.join(', ')}` }).optional(),
    )
    .openapi({
      description:
        'Mailstead extension: only mail to recipient domains whose MX hosts belong to this mailbox provider (gmail covers Google Workspace, microsoft Microsoft 365). Domains delivery has not resolved yet count as other.',
    }),
  group_by: z
    .preprocess(emptyToUndefined, z.enum(GROUP_BY, { error: `must be one of ${GROUP_BY.join(', ')}` }).default('day'))
    .openapi({ description: 'Buckets in UTC: hour, day, week (ISO, from Monday) or month. Default: day.' }),
});

export type StatisticsQuery = z.output<typeof statisticsQuerySchema>;

const bucketTimes = {
  from_timestamp: z
    .string()
    .datetime()
    .openapi({ description: 'Start of the bucket (the window start for the first one).' }),
  to_timestamp: z
    .string()
    .datetime()
    .openapi({ description: 'End of the bucket, exclusive (the window end for the last one).' }),
};

export const deliverabilityStatisticsSchema = z
  .object({
    ...bucketTimes,
    reception_count: z.number().int(),
    delivered_count: z.number().int(),
    deferred_count: z.number().int(),
    bounced_count: z.number().int(),
    failed_count: z.number().int(),
    suppressed_count: z.number().int(),
    opened_count: z.number().int().openapi({ description: 'Messages opened for the first time in this bucket.' }),
    clicked_count: z.number().int().openapi({ description: 'Messages clicked for the first time in this bucket.' }),
  })
  .openapi('DeliverabilityStatistics');

export const bounceStatisticsSchema = z
  .object({
    ...bucketTimes,
    bounces: z.array(z.object({ classification: z.string(), count: z.number().int() }).openapi('Bounce')),
  })
  .openapi('BounceStatistics');

export const deliveryTimeStatisticsSchema = z
  .object({
    ...bucketTimes,
    avg_delivery_time: z
      .number()
      .openapi({ description: 'Average seconds from reception (or the scheduled time) to delivery.' }),
    delivered_count: z.number().int(),
    delivery_times: z.array(
      z
        .object({ recipient_domain: z.string(), delivery_time: z.number(), count: z.number().int() })
        .openapi('DeliveryTime'),
    ),
    delivery_time_histogram: z
      .array(z.object({ up_to_seconds: z.number().int().nullable(), count: z.number().int() }))
      .openapi({
        description:
          'Deliveries by time taken, in fixed bins up to the given seconds (null: slower than the last bin). Mailstead extension.',
      }),
  })
  .openapi('DeliveryTimeStatistics');

const listOf = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ object: z.literal('list'), data: z.array(item) }).openapi(name);

export const deliverabilityStatisticsResponseSchema = listOf(
  deliverabilityStatisticsSchema,
  'DeliverabilityStatisticsResponse',
);
export const bounceStatisticsResponseSchema = listOf(bounceStatisticsSchema, 'BounceStatisticsResponse');
export const deliveryTimeStatisticsResponseSchema = listOf(
  deliveryTimeStatisticsSchema,
  'DeliveryTimeStatisticsResponse',
);

export const providerStatisticsSchema = z
  .object({
    provider: z.enum(MAILBOX_PROVIDERS),
    reception_count: z.number().int(),
    delivered_count: z.number().int(),
    deferred_count: z.number().int(),
    bounced_count: z.number().int(),
    failed_count: z.number().int(),
    opened_count: z.number().int(),
    clicked_count: z.number().int(),
    complained_count: z.number().int(),
    avg_delivery_time: z.number().openapi({ description: 'Average seconds from reception to delivery.' }),
    median_delivery_time: z.number().int().nullable().openapi({
      description:
        'Upper bound (seconds) of the delivery-time bin holding the median delivery; null without deliveries or beyond the last bin (2 hours).',
    }),
    p95_delivery_time: z.number().int().nullable().openapi({
      description: 'The same for the 95th percentile.',
    }),
  })
  .openapi('ProviderStatistics');

export const providerStatisticsResponseSchema = listOf(providerStatisticsSchema, 'ProviderStatisticsResponse');
