import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { MemberRole } from '@/lib/auth/principal';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { getMemberInAccount } from '@/lib/core/members/internal/queries';
import { defineVerb } from '@/lib/core/verb';
import { forbidden, invalidInput } from '@/lib/shared/errors';
import { endEverySessionOf } from './internal/session-queries';
import { memberSessionsPathSchema } from './schemas';

/**
 * POST /internal/accounts/{account_id}/members/{user_id}/end-sessions: who may manage members signs
 * a member out of every device (a lost laptop, a departure). As with removal: never yourself (your
 * profile does that), never the owner, and only a member whose role's scopes you hold.
 */
export const endMemberSessions = defineVerb({
  scope: 'accounts:members:update',
  input: memberSessionsPathSchema,
  async run(ctx, input) {
    const accountId = ctx.principal.targetAccountId;
    const member = await getMemberInAccount(ctx.db, accountId, input.user_id);
    if (member.userId === ctx.principal.userId)
      throw invalidInput('you cannot end your own sessions here: use your profile page');
    if (member.userId === member.ownerId) throw forbidden("the account owner's sessions cannot be ended by others");
    authorizeHoldingEveryScopeOf(ctx.principal, { kind: 'role', role: member.role as MemberRole });
    return ctx.db.transaction(async (tx) => {
      const ended = await endEverySessionOf(tx, member.userId, ctx.now());
      await recordAuditEvent(tx, ctx, {
        action: 'member.sessions_end',
        resource: { type: 'member', id: member.userId },
        changes: ['sessions'],
      });
      return { message: `${ended.length} session(s) of ${member.email} ended`, ended: ended.length };
    });
  },
});
