import { and, eq, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { signupConfirmations, signupForms } from '@/lib/db/schema';
import { confirmationTokenHash } from './internal/signup-rules';

/**
 * What the confirmation link's page needs before the button is pressed: only where the form sends
 * people afterwards (for the page's form-action), read and never written, so that a link scanner's
 * GET changes nothing. Null for any token that is not usable, alike. Unsafe: the token is the permission.
 */
export async function unsafeDescribeSignupConfirmation(
  services: Pick<Services, 'db'>,
  token: string,
): Promise<{ redirectUrl: string | null } | null> {
  const hash = confirmationTokenHash(token);
  if (!hash) return null;
  const [found] = await services.db
    .select({ redirectUrl: signupForms.redirectUrl })
    .from(signupConfirmations)
    .innerJoin(signupForms, and(eq(signupForms.id, signupConfirmations.formId), isNull(signupForms.deletedAt)))
    .where(and(eq(signupConfirmations.tokenHash, hash), isNull(signupConfirmations.usedAt)))
    .limit(1);
  return found ?? null;
}
