import { and, asc, eq, isNull } from 'drizzle-orm';
import { AppError } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { ROLE_SCOPES, isMemberRole } from '@/lib/auth/roles';
import { accounts, memberships, users } from '@/lib/db/schema';

/** The signed-in person and the accounts they belong to, with their role and its scopes there. */
export const getCurrentUser = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal }) {
    if (principal.kind !== 'session' || !principal.userId) throw new AppError('unauthenticated', 'a dashboard session is required');
    const [user] = await db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
    if (!user) throw new AppError('unauthenticated', 'a dashboard session is required');
    const rows = await db
      .select({ id: accounts.id, name: accounts.name, status: accounts.status, ownerId: accounts.ownerId, role: memberships.role })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(and(eq(memberships.userId, user.id), isNull(accounts.deletedAt)))
      .orderBy(asc(accounts.createdAt));
    return {
      object: 'user' as const,
      id: user.id,
      email: user.email,
      name: user.name,
      accounts: rows
        .filter((row) => isMemberRole(row.role))
        .map((row) => ({
          id: row.id,
          name: row.name,
          status: row.status,
          role: row.role,
          is_owner: row.ownerId === user.id,
          scopes: isMemberRole(row.role) ? [...ROLE_SCOPES[row.role]] : [],
        })),
    };
  },
});
