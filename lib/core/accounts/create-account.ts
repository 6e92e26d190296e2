import { insertApiKey } from '@/lib/core/api-keys/create-api-key';
import { findOrCreateUser } from '@/lib/core/users/internal/find-or-create-user';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts, memberships } from '@/lib/db/schema';
import { systemPrincipal } from '@/lib/auth/principal';
import { createAccountSchema } from './schemas';

/**
 * Operator verb (CLI, first-run setup): a new account whose owner is an Administrator member.
 * An existing user becomes the owner only with the right password.
 */
export const createAccount = defineVerb({
  scope: 'system',
  input: createAccountSchema,
  async run(ctx, input) {
    const { db, onSetupDone } = ctx;
    const result = await db.transaction(async (tx) => {
      const { user } = await findOrCreateUser(tx, { email: input.owner_email, password: input.owner_password });
      const [account] = await tx.insert(accounts).values({ name: input.name, ownerId: user.id }).returning();
      await tx.insert(memberships).values({ accountId: account.id, userId: user.id, role: 'Administrator' });
      const apiKey = input.with_api_key
        ? await insertApiKey(
            tx,
            { principal: systemPrincipal(account.id) },
            account.id,
            { label: 'Created by mailstead accounts create', scopes: ['*'] },
            { isRecorded: false },
          )
        : null;
      await recordAuditEvent(tx, ctx, {
        action: 'account.create',
        resource: { type: 'account', id: account.id },
        accountId: account.id,
      });
      return { account_id: account.id, owner_id: user.id, api_key: apiKey?.secret_key ?? null };
    });
    onSetupDone?.();
    return result;
  },
});
