import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { domainsToAuthorize } from '@/lib/core/webhooks/internal/queries';
import { smtpCredentials } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { getSmtpCredentialInAccount } from './internal/queries';
import { smtpCredentialPathSchema } from './schemas';

/** Removes a credential with its domains; the submission server refuses it from the next AUTH on. */
export const deleteSmtpCredential = defineVerb({
  scope: 'smtp-credentials:delete:{domain}',
  input: smtpCredentialPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'smtp-credentials:delete:{domain}',
      await getSmtpCredentialInAccount(db, principal.targetAccountId, input.smtp_credential_id),
    ),
  async run(ctx, input) {
    const { db, principal } = ctx;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .delete(smtpCredentials)
        .where(
          and(
            eq(smtpCredentials.accountId, principal.targetAccountId),
            eq(smtpCredentials.id, input.smtp_credential_id),
          ),
        )
        .returning({ id: smtpCredentials.id, name: smtpCredentials.name });
      if (!changed) throw notFound('smtp credential not found');
      await recordAuditEvent(tx, ctx, {
        action: 'smtp_credential.delete',
        resource: { type: 'smtp_credential', id: changed.id },
      });
      return changed;
    });
    return { message: `smtp credential ${row.id} (${row.name}) deleted successfully` };
  },
});
