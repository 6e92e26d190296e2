import { z } from '@/lib/core/zod';

export const completeSetupSchema = z
  .object({
    token: z.string().trim().min(1, 'the setup token is required').max(200),
    account_name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    email: z.string().trim().toLowerCase().email('must be an email address').max(254),
    password: z.string().min(10, 'must be at least 10 characters').max(1024, 'must be at most 1024 characters'),
  })
  .openapi('CompleteSetupRequest');
