import { z } from '@/lib/core/zod';

/** The one rule for human passwords, wherever a person sets one (first-run setup, CLI, members). */
export const passwordSchema = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(1024, 'must be at most 1024 characters');
