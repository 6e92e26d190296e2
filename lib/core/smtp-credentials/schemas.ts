import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

export const smtpCredentialIdSchema = z.string().uuid('invalid smtp_credential_id');

const SCOPES = ['global', 'scoped'] as const;

export const createSmtpCredentialSchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    // The official CLI sends a scope only when one is chosen, defaulting to global; "" is read the same way.
    scope: z.preprocess(
      (value) => (value === '' ? 'global' : value),
      z.enum(SCOPES, { error: 'must be "global" or "scoped"' }),
    ),
    sandbox: z.boolean().default(false),
    domains: z
      .array(z.string().max(300, 'domain is too long'))
      .max(100, 'must hold at most 100 domains')
      .nullish()
      .openapi({ description: 'Required and non-empty when scope is scoped; ignored when global.' }),
  })
  .superRefine((value, ctx) => {
    if (value.scope === 'scoped' && !value.domains?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['domains'],
        message: 'is required and must not be empty when scope is "scoped"',
      });
  })
  .openapi('CreateSMTPCredentialRequest');

export const listSmtpCredentialsQuerySchema = pageQuerySchema;

export const smtpCredentialPathSchema = z.object({ smtp_credential_id: smtpCredentialIdSchema });

export const smtpCredentialSchema = z
  .object({
    object: z.literal('credential_smtp'),
    id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    name: z.string(),
    username: z.string(),
    sandbox: z.boolean(),
    scope: z.enum(SCOPES),
    domains: z.array(z.string()),
  })
  .openapi('SMTPCredential');

export const createdSmtpCredentialSchema = smtpCredentialSchema
  .extend({ password: z.string().openapi({ description: 'SMTP password, shown only in this response.' }) })
  .openapi('CreatedSMTPCredential');
