import { z } from '@/lib/core/zod';

/** Six digits from the authenticator app; spaces (as some apps show them) are ignored. */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be the 6-digit code from your authenticator app'));

export const enableTwoFactorSchema = z.object({ code: totpCodeSchema });

export const disableTwoFactorSchema = z.object({ password: z.string().min(1, 'must not be empty').max(1024) });

/** Proof that the person at the keyboard holds the account: their password or a current code. */
export const regenerateRecoveryCodesSchema = z
  .object({
    password: z.string().min(1, 'must not be empty').max(1024).optional(),
    code: totpCodeSchema.optional(),
  })
  .refine((value) => value.password !== undefined || value.code !== undefined, {
    message: 'give your password or a current code from your authenticator app',
    path: ['password'],
  });

export const setTwoFactorRequirementSchema = z.object({ require_two_factor: z.boolean() });
