import { z } from '@/lib/core/zod';
import { passwordSchema } from '@/lib/core/users/internal/password-schema';

export const completeSetupSchema = z
  .object({
    token: z.string().trim().min(1, 'the setup token is required').max(200),
    account_name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    email: z.string().trim().toLowerCase().email('must be an email address').max(254),
    password: passwordSchema,
  })
  .openapi('CompleteSetupRequest');
