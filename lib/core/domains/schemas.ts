import { z } from '@/lib/core/zod';
import { pageQuerySchema } from '@/lib/core/shared/pagination';

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
    sending_type: z.enum(SENDING_TYPES),
    paused: z.boolean(),
    paused_at: z.string().datetime().nullable(),
    pause_reason: z.string().nullable(),
    status: z
      .enum(['verified', 'pending', 'failing', 'paused'])
      .openapi({ description: 'Summary for people (Mailstead extension).' }),
  })
  .openapi('Domain');
