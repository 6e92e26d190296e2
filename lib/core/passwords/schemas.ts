import { passwordSchema } from '@/lib/core/users/internal/password-schema';
import { z } from '@/lib/core/zod';

const requiredString = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/** The Profile page's form adds the "new password again" field on top of this. */
export const changePasswordSchema = z.object({
  // Left out only by a person who has no password yet (made by single sign-on).
  current_password: requiredString().min(1, 'is required').max(1024, 'must be at most 1024 characters').optional(),
  new_password: passwordSchema,
});

export const requestPasswordResetSchema = z.object({
  email: requiredString()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .email('must be an email address'),
});

/** The reset link's secret: 43 base64url characters (32 random bytes). */
const resetTokenSchema = requiredString().regex(/^[A-Za-z0-9_-]{43}$/, 'this reset link is not valid');

export const inspectPasswordResetSchema = z.object({ token: resetTokenSchema });

export const completePasswordResetSchema = z.object({ token: resetTokenSchema, password: passwordSchema });
