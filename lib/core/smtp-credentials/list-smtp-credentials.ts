import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { domains, smtpCredentialDomains, smtpCredentials } from '@/lib/db/schema';
import { presentSmtpCredential, type SmtpCredentialRow } from './internal/present';
import { loadSmtpCredentialDomains } from './internal/queries';
import { listSmtpCredentialsQuerySchema } from './schemas';

/**
 * The account's credentials, newest first. A domain-scoped key sees only scoped credentials with at
 * least one of its domains (global ones need `:all`), as the contract says for webhooks too.
 */
export const listSmtpCredentials = defineVerb({
  scope: 'smtp-credentials:read:{domain}',
  input: listSmtpCredentialsQuerySchema,
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const conditions: (SQL | undefined)[] = [eq(smtpCredentials.accountId, accountId)];
    const accountDomains = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)));
    const visible = authorizedDomains(
      principal,
      'smtp-credentials:read:{domain}',
      accountDomains.map((row) => row.domain),
    );
    if (visible !== 'all') {
      conditions.push(
        visible.length === 0
          ? sql`false`
          : and(
              eq(smtpCredentials.scope, 'scoped'),
              sql`exists (select 1 from ${smtpCredentialDomains} where ${smtpCredentialDomains.credentialId} = ${smtpCredentials.id} and ${inArray(smtpCredentialDomains.domain, visible)})`,
            ),
      );
    }
    return paginate(db, {
      table: smtpCredentials,
      idColumn: smtpCredentials.id,
      where: and(...conditions),
      query,
      map: async (rows: SmtpCredentialRow[]) => {
        const byCredential = await loadSmtpCredentialDomains(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => presentSmtpCredential(row, byCredential.get(row.id) ?? []));
      },
    });
  },
});
