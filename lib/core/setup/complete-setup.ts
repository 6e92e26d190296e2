import { sql } from 'drizzle-orm';
import { AppError, conflict } from '@/lib/shared/errors';
import { findOrCreateUser } from '@/lib/core/users/internal/find-or-create-user';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts, memberships } from '@/lib/db/schema';
import { completeSetupSchema } from './schemas';
import { consumeSetupToken } from './setup-token';

/** First-run setup: the first account and its owner, guarded by the one-time setup token. */
export const completeSetup = defineVerb({
  scope: 'any',
  input: completeSetupSchema,
  async run(ctx, input) {
    const { db, onSetupDone } = ctx;
    const result = await db.transaction(async (tx) => {
      // Serialise concurrent attempts; the token is consumed once.
      await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
      const [existing] = await tx.select({ n: sql<number>`count(*)::int` }).from(accounts);
      if (existing.n > 0) throw conflict('setup is already complete: sign in instead');
      if (!(await consumeSetupToken(tx as never, input.token)))
        throw new AppError('forbidden', 'token: the setup token is not valid', 'token');
      const { user } = await findOrCreateUser(tx, { email: input.email, password: input.password });
      const [account] = await tx.insert(accounts).values({ name: input.account_name, ownerId: user.id }).returning();
      await tx.insert(memberships).values({ accountId: account.id, userId: user.id, role: 'Administrator' });
      // Nobody is signed in yet: the person who set the instance up is the actor.
      await recordAuditEvent(tx, ctx, {
        action: 'account.create',
        resource: { type: 'account', id: account.id },
        accountId: account.id,
        actor: { type: 'user', id: user.id, label: user.email },
      });
      return { account_id: account.id, user_id: user.id, email: user.email };
    });
    onSetupDone?.();
    return result;
  },
});
