import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { normalizeWebhookDomains, resolveWebhookDomains } from '@/lib/core/webhooks/internal/webhook-domains';
import { smtpCredentialDomains, smtpCredentials } from '@/lib/db/schema';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';
import { presentSmtpCredential } from './internal/present';
import { createSmtpCredentialSchema } from './schemas';

/** Generated, like the password: AUTH names no account, so a username must be unique everywhere. */
export function generateSmtpUsername(): string {
  return `smtp-${randomToken(20).toLowerCase()}`;
}

/** 40 random alphanumerics (about 238 bits): SHA-256 is enough to store it, as for API keys. */
export function hashSmtpPassword(password: string): string {
  return sha256Hex(password);
}

/**
 * As webhooks: a global credential needs `smtp-credentials:write:all` and answers `domains: []`; a
 * scoped one needs write permission for every domain it names. The only time the password is shown.
 */
export const createSmtpCredential = defineVerb({
  scope: 'smtp-credentials:write:{domain}',
  input: createSmtpCredentialSchema,
  domains: (_ctx, input) => (input.scope === 'global' ? [] : normalizeWebhookDomains(input.domains ?? [])),
  async run(ctx, input) {
    const { db, principal } = ctx;
    const domains =
      input.scope === 'scoped' ? await resolveWebhookDomains(db, principal.targetAccountId, input.domains ?? []) : [];
    const password = randomToken(40);
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(smtpCredentials)
        .values({
          accountId: principal.targetAccountId,
          name: input.name,
          username: generateSmtpUsername(),
          passwordHash: hashSmtpPassword(password),
          scope: input.scope,
          isSandbox: input.sandbox,
        })
        .returning();
      if (domains.length > 0)
        await tx.insert(smtpCredentialDomains).values(domains.map((domain) => ({ credentialId: row.id, domain })));
      await recordAuditEvent(tx, ctx, {
        action: 'smtp_credential.create',
        resource: { type: 'smtp_credential', id: row.id },
      });
      return { ...presentSmtpCredential(row, domains), password };
    });
  },
});
