import { z } from '@/lib/core/zod';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { MAILBOX_PROVIDERS } from '@/lib/core/providers/classify-mailbox-provider';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A custom subdomain: one DNS label, lowercased (e.g. `bounces` for bounces.example.com). */
const subdomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => LABEL.test(value), 'must be a single DNS label: 1-63 letters, digits or inner hyphens');

/** Trimmed and lowercased; empty means "use the default selector". */
const dkimSelectorSchema = z
  .string()
  .nullish()
  .transform((value) => (value ?? '').trim().toLowerCase())
  .refine(
    (value) => value === '' || /^(?!-)[a-z0-9-]{1,62}(?<!-)$/.test(value),
    'must be a single DNS label of 1-62 lowercase letters, digits and hyphens, with no hyphen at either end',
  );

const SENDING_TYPES = ['transactional', 'marketing'] as const;

const rotationIntervalSchema = z
  .unknown()
  .optional()
  .refine(
    (value) => value === undefined || value === null,
    'is only for managed DNS, which a self-hosted Mailstead does not have: leave it out',
  );

/** The longest custom plan: two months of days; past its end, warm-up is over. */
export const MAX_WARMUP_PLAN_DAYS = 60;
const MAX_WARMUP_LIMIT = 10_000_000;

const warmupLimitSchema = z
  .number({ error: 'must be a whole number of messages or null (no limit)' })
  .int('must be a whole number of messages')
  .min(0, 'must be 0 or more')
  .max(MAX_WARMUP_LIMIT, `must be at most ${MAX_WARMUP_LIMIT}`)
  .nullish();

const warmupDaySchema = z
  .strictObject(
    Object.fromEntries(MAILBOX_PROVIDERS.map((provider) => [provider, warmupLimitSchema])) as Record<
      (typeof MAILBOX_PROVIDERS)[number],
      typeof warmupLimitSchema
    >,
    { error: 'each day must be an object of limits by provider (gmail, microsoft, yahoo, apple, other)' },
  )
  .openapi('WarmupDay');

/** `"default"` (or null) is the default ramp; an array is a custom plan, one entry per UTC day. */
export const warmupPlanSchema = z.preprocess(
  (value) => (value === 'default' ? null : value),
  z
    .array(warmupDaySchema, { error: 'must be "default" or an array of days' })
    .min(1, 'must list at least one day')
    .max(MAX_WARMUP_PLAN_DAYS, `must list at most ${MAX_WARMUP_PLAN_DAYS} days`)
    .nullish(),
);

export const warmupSettingsSchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: 'must be true or false' }),
      plan: warmupPlanSchema.openapi({
        description:
          '`"default"` or an array of days, each `{ "gmail": 50, "microsoft": 50, ... }`; a provider left out, or null, has no limit that day; past the last day warm-up is over.',
      }),
      started_at: z
        .string({ error: 'must be a date-time' })
        .max(40, 'must be a date-time')
        .datetime({ offset: true, error: 'must be a date-time such as 2026-11-27T00:00:00Z' })
        .nullish()
        .openapi({ description: 'Day 1 is this UTC day; omitted when turning warm-up on: now.' }),
    },
    { error: 'must be an object with enabled, plan and started_at' },
  )
  .openapi('WarmupSettings');

export const createDomainSchema = z
  .object({
    domain: z.string({ error: 'is required' }).max(300, 'is longer than 253 characters'),
    dkim_private_key: z.string().max(20_000, 'is too long').optional(),
    tracking_subdomain: subdomainSchema.optional(),
    return_path_subdomain: subdomainSchema.optional(),
    subscription_subdomain: subdomainSchema.optional(),
    media_subdomain: subdomainSchema.optional(),
    dkim_rotation_interval_days: rotationIntervalSchema,
    dkim_selector: dkimSelectorSchema,
    sending_type: z.enum(SENDING_TYPES, { error: 'must be "transactional" or "marketing"' }).optional(),
  })
  .openapi('CreateDomainRequest');

export const updateDomainSchema = z
  .object({
    tracking_subdomain: subdomainSchema.nullish(),
    return_path_subdomain: subdomainSchema.nullish(),
    subscription_subdomain: subdomainSchema.nullish(),
    media_subdomain: subdomainSchema.nullish(),
    dkim_rotation_interval_days: rotationIntervalSchema,
    dkim_selector: z
      .string()
      .nullish()
      .refine(
        (value) =>
          value == null || value.trim() === '' || /^(?!-)[a-z0-9-]{1,62}(?<!-)$/.test(value.trim().toLowerCase()),
        'must be a single DNS label of 1-62 lowercase letters, digits and hyphens, with no hyphen at either end',
      ),
    sending_type: z.enum(SENDING_TYPES, { error: 'must be "transactional" or "marketing"' }).optional().openapi({
      description:
        "Mailstead extension (not in AhaSend's UpdateDomainRequest): change the sending type after creation; campaigns need `marketing`.",
    }),
    dsn_recipient: z.string().trim().toLowerCase().email('must be an email address').max(254).nullish(),
    reports_enabled: z.boolean({ error: 'must be true or false' }).optional().openapi({
      description:
        'Mailstead extension: receive DMARC aggregate and TLS reports on our MX; the DMARC record gains `rua` and a TLSRPT record is added.',
    }),
    warmup: warmupSettingsSchema.optional().openapi({
      description:
        "Mailstead extension: a daily volume ramp per mailbox provider; mail beyond the day's limit stays queued until the next UTC day.",
    }),
  })
  .openapi('UpdateDomainRequest');

export const listDomainsQuerySchema = pageQuerySchema.extend({
  dns_valid: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['true', 'false'], { error: 'dns_valid must be true or false' }).optional(),
  ),
});

export const domainPathSchema = z.object({ domain: z.string().max(300) });

const dnsRecordSchema = z
  .object({
    type: z.string(),
    label: z.string(),
    host: z.string(),
    content: z.string(),
    required: z.boolean(),
    propagated: z.boolean(),
    priority: z.number().int().optional().openapi({ description: 'MX priority (Mailstead extension).' }),
    found: z
      .array(z.string())
      .nullable()
      .openapi({ description: 'What the last DNS check found (Mailstead extension).' }),
    error: z.string().nullable().openapi({
      description: 'Why the last check could not decide; the previous verdict was kept (Mailstead extension).',
    }),
    checked_at: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'Time of the last check of this record (Mailstead extension).' }),
  })
  .openapi('DNSRecord');

export const domainSchema = z
  .object({
    object: z.literal('domain'),
    id: z.string().uuid(),
    account_id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    domain: z.string(),
    dns_records: z.array(dnsRecordSchema),
    last_dns_check_at: z.string().datetime().nullable(),
    dns_valid: z.boolean(),
    tracking_subdomain: z.string().nullable(),
    return_path_subdomain: z.string().nullable(),
    subscription_subdomain: z.string().nullable(),
    media_subdomain: z.string().nullable(),
    dkim_rotation_interval_days: z.number().int().nullable(),
    dkim_selector: z.string().nullable(),
    rotation_ready: z.boolean(),
    dsn_recipient: z.string().nullable(),
    reports_enabled: z
      .boolean()
      .openapi({ description: 'DMARC and TLS reports received on our MX (Mailstead extension).' }),
    report_address: z.string().nullable().openapi({
      description: 'Where reporters mail DMARC and TLS reports while reports are on (Mailstead extension).',
    }),
    sending_type: z.enum(SENDING_TYPES),
    warmup: z
      .object({
        enabled: z.boolean(),
        plan: z.union([z.literal('default'), z.array(warmupDaySchema)]),
        started_at: z.string().datetime().nullable(),
      })
      .openapi({ description: "Warm-up settings (Mailstead extension); today's counts: GET …/warmup." }),
    paused: z.boolean(),
    paused_at: z.string().datetime().nullable(),
    pause_reason: z.string().nullable(),
    status: z
      .enum(['verified', 'pending', 'failing', 'paused'])
      .openapi({ description: 'Summary for people (Mailstead extension).' }),
  })
  .openapi('Domain');

/** The measured Gmail/Yahoo rules of a domain (get-domain-provider-checklist.ts); Mailstead extension. */
export const providerChecklistSchema = z
  .object({
    object: z.literal('list'),
    window_days: z.number().int(),
    data: z.array(
      z
        .object({
          id: z.string(),
          label: z.string(),
          status: z.enum(['pass', 'warn', 'fail', 'unknown']),
          value: z.number().nullable().openapi({ description: 'The measured share, 0 to 1; null when unmeasured.' }),
          measured: z.string(),
          threshold: z.string(),
          help: z.string(),
        })
        .openapi('ProviderChecklistItem'),
    ),
  })
  .openapi('ProviderChecklist');

const warmupProviderSchema = z
  .object({
    provider: z.enum(MAILBOX_PROVIDERS),
    label: z.string(),
    limit: z.number().int().nullable().openapi({ description: "Today's limit; null for no limit." }),
    sent: z.number().int().openapi({ description: 'Messages handed to this provider today (UTC).' }),
    held: z.number().int().openapi({ description: 'Messages held today because the limit was reached.' }),
  })
  .openapi('WarmupProvider');

const warmupTodayFields = {
  day: z.number().int().nullable().openapi({ description: "Today's day of the plan (1 is the first); null when off." }),
  plan_days: z.number().int().openapi({ description: 'How many days the plan limits; after them, no limit.' }),
  is_over: z.boolean().openapi({ description: 'Past the last day of the plan: mail goes at full volume.' }),
  held: z.number().int().openapi({ description: 'Messages held today for the next day, all providers.' }),
  providers: z.array(warmupProviderSchema),
};

/** Today's warm-up of a domain (get-domain-warmup.ts); Mailstead extension. */
export const domainWarmupSchema = z
  .object({
    object: z.literal('warmup'),
    enabled: z.boolean(),
    plan: z.enum(['default', 'custom']),
    started_at: z.string().datetime().nullable(),
    ...warmupTodayFields,
    resets_at: z
      .string()
      .datetime()
      .openapi({ description: 'The next UTC midnight: counts start afresh, held mail goes.' }),
    server_ip: z
      .object({
        started_at: z.string().datetime(),
        plan: z.enum(['default', 'custom']),
        ...warmupTodayFields,
      })
      .nullable()
      .openapi({
        description:
          "The server's IP warm-up (IP_WARMUP_STARTED_AT), which counts all of the server's directly delivered mail, every domain's together; null when the operator has not set one.",
      }),
  })
  .openapi('DomainWarmup');
