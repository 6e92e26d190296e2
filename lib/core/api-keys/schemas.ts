import { z } from '@/lib/core/zod';

export const apiKeyIdSchema = z.string().uuid('invalid key_id');

const labelSchema = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

// Raw lists are bounded before any work is done on them; the 100-entry rule applies after de-duplication.
const scopesSchema = z
  .array(z.string().max(600, 'scope is too long'))
  .min(1, 'must hold at least one scope')
  .max(500, 'too many scopes');
const ipAllowListSchema = z.array(z.string().max(100, 'entry is too long')).max(1000, 'must hold at most 100 entries');

export const createApiKeySchema = z
  .object({
    label: labelSchema,
    scopes: scopesSchema,
    ip_allow_list: ipAllowListSchema.nullish(),
  })
  .openapi('CreateAPIKeyRequest');

export const updateApiKeySchema = z
  .object({
    label: labelSchema.nullish(),
    scopes: scopesSchema.nullish(),
    ip_allow_list: ipAllowListSchema.nullish(),
  })
  .openapi('UpdateAPIKeyRequest');

const apiKeyScopeSchema = z
  .object({
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    api_key_id: z.string().uuid(),
    scope: z.string(),
    domain_id: z.string().uuid().nullable(),
  })
  .openapi('APIKeyScope');

export const apiKeySchema = z
  .object({
    object: z.literal('api_key'),
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    last_used_at: z.string().datetime().nullable(),
    account_id: z.string().uuid(),
    label: z.string(),
    public_key: z.string(),
    scopes: z.array(apiKeyScopeSchema),
    ip_allow_list: z.array(z.string()),
    sandbox: z.boolean().openapi({
      description: 'Sandbox mode: sends run without leaving the server (Mailstead extension; set from the dashboard).',
    }),
  })
  .openapi('APIKey');

export const createdApiKeySchema = apiKeySchema.extend({ secret_key: z.string() }).openapi('CreatedAPIKey');
