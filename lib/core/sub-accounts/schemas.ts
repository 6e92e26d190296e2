import { z } from '@/lib/core/zod';

export const subAccountIdSchema = z.string().uuid('invalid sub_account_id');

export const SUB_ACCOUNT_STATUSES = ['active', 'suspended', 'parent-suspended', 'deleted'] as const;

const MAX_MONTHLY_CREDIT = 1_000_000_000;

const nameSchema = z.string().trim().min(1, 'must not be blank').max(255, 'must be at most 255 characters');

// A bare domain (the contract's format fqdn); normalised by the verbs (normalizeWebsite), since the
// normaliser needs node modules and this schema also runs in the dashboard's form.
const websiteSchema = z.string().max(255, 'must be at most 255 characters');

const monthlyCreditSchema = z
  .number({ error: 'must be a whole number between 0 and 1000000000' })
  .int('must be a whole number between 0 and 1000000000')
  .min(0, 'must be between 0 and 1000000000 (0 means no cap)')
  .max(MAX_MONTHLY_CREDIT, 'must be between 0 and 1000000000 (0 means no cap)');

export const createSubAccountSchema = z
  .object({
    name: nameSchema,
    website: websiteSchema.openapi({ format: 'fqdn' }),
    monthly_credit: monthlyCreditSchema.default(0),
  })
  .openapi('CreateSubAccountRequest');

export const updateSubAccountSchema = z
  .object({
    name: nameSchema.nullish(),
    website: websiteSchema.openapi({ format: 'fqdn' }).nullish(),
    monthly_credit: monthlyCreditSchema.nullish(),
  })
  .openapi('UpdateSubAccountRequest');

export const suspendSubAccountSchema = z
  .object({ reason: z.string().trim().min(1, 'must not be blank').max(500, 'must be at most 500 characters') })
  .openapi('SuspendSubAccountRequest');

export const subAccountSchema = z
  .object({
    object: z.literal('sub_account'),
    id: z.string().uuid(),
    parent_account_id: z.string().uuid(),
    created_at: z.string().datetime(),
    name: z.string(),
    website: z.string(),
    status: z.enum(SUB_ACCOUNT_STATUSES),
    monthly_credit: z.number().int(),
    domain_count: z.number().int(),
    member_count: z.number().int(),
    last_activity_at: z.string().datetime().nullable(),
    suspension_reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the sub account was suspended; null unless suspended (Mailstead extension).' }),
  })
  .openapi('SubAccount');

const usageBreakdownSchema = z
  .object({
    account_id: z.string().uuid().optional(),
    name: z.string().optional(),
    reception_count: z.number().int(),
    allocated_cost: z.number(),
  })
  .openapi('SubAccountUsageBreakdown');

export const subAccountUsageSchema = z
  .object({
    billing_period: z.object({ start: z.string().datetime(), end: z.string().datetime() }),
    currency: z.string(),
    allocation_method: z.literal('proportional'),
    allocation_note: z.string(),
    parent: usageBreakdownSchema,
    sub_accounts: z.array(usageBreakdownSchema),
    removed_sub_accounts: usageBreakdownSchema,
    total: usageBreakdownSchema,
  })
  .openapi('SubAccountUsageResponse');

const MAX_HISTORY_MONTHS = 24;

/** The months of a usage history: 12 by default, the current one included, at most two years. */
export const subAccountUsageHistoryQuerySchema = z.object({
  sub_account_id: subAccountIdSchema,
  months: z.coerce
    .number({ error: `must be a whole number from 1 to ${MAX_HISTORY_MONTHS}` })
    .int(`must be a whole number from 1 to ${MAX_HISTORY_MONTHS}`)
    .min(1, `must be a whole number from 1 to ${MAX_HISTORY_MONTHS}`)
    .max(MAX_HISTORY_MONTHS, `must be a whole number from 1 to ${MAX_HISTORY_MONTHS}`)
    .default(12),
});

export type SubAccountObject = z.output<typeof subAccountSchema>;
