import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { webhookDomains, webhooks } from '@/lib/db/schema';
import { randomToken } from '@/lib/shared/crypto';
import { checkWebhookUrl } from './internal/check-webhook-url';
import { flagColumns } from './fan-out';
import { presentWebhook } from './internal/present';
import { createWebhookSchema } from './schemas';
import { normalizeWebhookDomains, resolveWebhookDomains } from './internal/webhook-domains';

export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

/** The format the AhaSend tools use; the HMAC key is the UTF-8 bytes of the whole string. */
export function generateWebhookSecret(): string {
  return `aha-whsec-${randomToken(64)}`;
}

/**
 * A global webhook needs `webhooks:write:all` and ignores `domains` (answering `[]`); a scoped one
 * needs write permission for every domain it names. The response is the only time the secret is shown.
 */
export const createWebhook = defineVerb({
  scope: 'webhooks:write:{domain}',
  input: createWebhookSchema,
  domains: (_ctx, input) => (input.scope === 'global' ? [] : normalizeWebhookDomains(input.domains ?? [])),
  async run(services, input) {
    const { db, principal, secrets } = services;
    const url = await checkWebhookUrl(services, input.url);
    const domains =
      input.scope === 'scoped' ? await resolveWebhookDomains(db, principal.targetAccountId, input.domains ?? []) : [];
    const secret = generateWebhookSecret();
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhooks)
        .values({
          accountId: principal.targetAccountId,
          name: input.name,
          url,
          secretEncrypted: secrets.encrypt(WEBHOOK_SECRET_PURPOSE, secret),
          scope: input.scope,
          enabled: input.enabled,
          ...flagColumns(input),
        })
        .returning();
      if (domains.length > 0)
        await tx.insert(webhookDomains).values(domains.map((domain) => ({ webhookId: row.id, domain })));
      await recordAuditEvent(tx, services, { action: 'webhook.create', resource: { type: 'webhook', id: row.id } });
      return { ...presentWebhook(row, domains), secret };
    });
  },
});
