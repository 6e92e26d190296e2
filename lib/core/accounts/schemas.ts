import { z } from '@/lib/core/zod';
import { passwordSchema } from '@/lib/core/users/internal/password-schema';

export const accountIdSchema = z.string().uuid('invalid account_id');

export const accountSchema = z
  .object({
    object: z.literal('account'),
    id: z.string().uuid(),
    parent_account_id: z.string().uuid().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    name: z.string(),
    website: z.string().nullable(),
    about: z.string().nullable(),
    track_opens: z.boolean(),
    track_clicks: z.boolean(),
    reject_bad_recipients: z.boolean(),
    reject_mistyped_recipients: z.boolean(),
    message_metadata_retention: z.number().int(),
    message_data_retention: z.number().int(),
    owner_id: z.string().uuid(),
  })
  .openapi('Account');

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

// A web address (the contract's URI); a bare domain, as the sub-account form takes it, gets https://.
const websiteSchema = z
  .string()
  .trim()
  .max(255, 'must be at most 255 characters')
  .transform((value) => (HAS_SCHEME.test(value) ? value : `https://${value}`))
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
  }, 'must be a web address such as example.com or https://example.com')
  .transform((value) => {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}${url.search}${url.hash}`;
  });

export const updateAccountSchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    website: websiteSchema.nullable(),
    about: z.string().max(5000, 'must be at most 5000 characters').nullable(),
    track_opens: z.boolean(),
    track_clicks: z.boolean(),
    reject_bad_recipients: z.boolean(),
    reject_mistyped_recipients: z.boolean(),
    message_metadata_retention: z
      .number()
      .int('must be a whole number of days')
      .min(1, 'must be between 1 and 30 days')
      .max(30, 'must be between 1 and 30 days'),
    message_data_retention: z
      .number()
      .int('must be a whole number of days')
      .min(0, 'must be between 0 and 30 days')
      .max(30, 'must be between 0 and 30 days'),
  })
  .partial()
  .openapi('UpdateAccountRequest');

const emailSchema = z.string().trim().toLowerCase().email('must be an email address').max(254);

/** Operator input (CLI): a new account and its owner. */
export const createAccountSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  owner_email: emailSchema,
  owner_password: passwordSchema,
  with_api_key: z.boolean().default(false),
});

export const accountTierSchema = z.enum(['standard', 'partner']);
export const accountStatusSchema = z.enum(['active', 'suspended']);
