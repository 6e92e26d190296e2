import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { MemberRole } from '@/lib/auth/principal';
import { defineVerb } from '@/lib/core/verb';
import { memberships } from '@/lib/db/schema';
import { forbidden, invalidInput } from '@/lib/shared/errors';
import { presentMember } from './internal/present';
import { getMemberInAccount } from './internal/queries';
import { memberPathSchema, updateMemberSchema } from './schemas';

/**
 * PUT members/{user_id} (Mailstead extension): a new role. The owner stays an Administrator, and
 * nobody changes their own role; the caller must hold every scope of both the old and the new role.
 */
export const updateMember = defineVerb({
  scope: 'accounts:members:update',
  input: updateMemberSchema.extend(memberPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const member = await getMemberInAccount(db, accountId, input.user_id);
    if (member.userId === member.ownerId)
      throw forbidden('the account owner is always an Administrator: their role cannot be changed');
    if (member.userId === principal.userId) throw invalidInput('you cannot change your own role', 'role');
    authorizeHoldingEveryScopeOf(principal, { kind: 'role', role: member.role as MemberRole });
    authorizeHoldingEveryScopeOf(principal, { kind: 'role', role: input.role });
    if (member.role === input.role) return presentMember(member);
    const at = now();
    await db.transaction(async (tx) => {
      await tx
        .update(memberships)
        .set({ role: input.role, updatedAt: at })
        .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, member.userId)));
      await recordAuditEvent(tx, ctx, {
        action: 'member.role_change',
        resource: { type: 'member', id: member.userId },
        changes: ['role'],
      });
    });
    return presentMember({ ...member, role: input.role, updatedAt: at });
  },
});
