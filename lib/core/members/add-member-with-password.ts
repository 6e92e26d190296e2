import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { MEMBER_ROLES } from '@/lib/auth/roles';
import { conflict, notFound } from '@/lib/shared/errors';
import { findOrCreateUser } from '@/lib/core/users/internal/find-or-create-user';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts, memberships } from '@/lib/db/schema';
import { passwordSchema } from '@/lib/core/users/internal/password-schema';

/** Operator verb (CLI): makes a person, new or existing (right password), a member with a role. */
export const addMemberWithPassword = defineVerb({
  scope: 'system',
  input: z.object({
    account_id: z.string().uuid('invalid account_id'),
    email: z.string().trim().toLowerCase().email('must be an email address'),
    password: passwordSchema,
    role: z.enum(MEMBER_ROLES, { error: `must be one of ${MEMBER_ROLES.join(', ')}` }),
  }),
  async run(ctx, input) {
    const { db } = ctx;
    return db.transaction(async (tx) => {
      const [account] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.id, input.account_id), isNull(accounts.deletedAt)));
      if (!account) throw notFound(`account ${input.account_id} not found`);
      const { user } = await findOrCreateUser(tx, { email: input.email, password: input.password });
      const inserted = await tx
        .insert(memberships)
        .values({ accountId: account.id, userId: user.id, role: input.role })
        .onConflictDoNothing()
        .returning();
      if (!inserted.length) throw conflict(`${input.email} is already a member of this account`);
      await recordAuditEvent(tx, ctx, {
        action: 'member.add',
        resource: { type: 'member', id: user.id },
        accountId: account.id,
      });
      return { account_id: account.id, user_id: user.id, role: input.role };
    });
  },
});
