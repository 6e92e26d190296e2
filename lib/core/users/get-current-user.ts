import { eq } from 'drizzle-orm';
import { NO_PASSWORD_HASH } from '@/lib/shared/crypto';
import { AppError } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { users } from '@/lib/db/schema';
import { listSessionAccess } from './find-session-access';

/**
 * The signed-in person and the accounts they may open, with their role and its scopes there: their
 * own memberships, each partner followed by its sub accounts (reached through the partner's role).
 */
export const getCurrentUser = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal }) {
    if (principal.kind !== 'session' || !principal.userId)
      throw new AppError('unauthenticated', 'a dashboard session is required');
    const [user] = await db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
    if (!user) throw new AppError('unauthenticated', 'a dashboard session is required');
    const accounts = await listSessionAccess(db, user.id);
    return {
      object: 'user' as const,
      id: user.id,
      email: user.email,
      name: user.name,
      // False for a person made by single sign-on until they set one (on their profile, or by a reset).
      has_password: user.passwordHash !== NO_PASSWORD_HASH,
      accounts: accounts.map((access) => ({
        id: access.accountId,
        name: access.name,
        status: access.status,
        role: access.role,
        is_owner: access.ownerId === user.id,
        // Only a partner has sub accounts: the dashboard hides their page and scopes elsewhere.
        tier: access.tier,
        scopes: [...access.scopes],
        // A sub account: its partner's id and name; `via` says whether the role is the person's own
        // there or the one they hold in the partner.
        parent_account: access.parent,
        via: access.via,
      })),
    };
  },
});
