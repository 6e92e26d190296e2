import { and, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { domains, webhookDeliveries } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { signalWork } from '@/lib/core/shared/work-signal';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { samplePayload } from './internal/sample-events';
import { triggerWebhookSchema, webhookIdSchema } from './schemas';
import { waitForAttempts } from './internal/wait-for-attempts';

/**
 * Sends sample events of the chosen types to the webhook (an extension the AhaSend CLI relies on):
 * deliveries marked as tests go through the outbox, signing and dispatch like real ones, into the
 * delivery log, with one attempt each and without touching the webhook's counters. The answer waits
 * for those attempts (at most the webhook timeout and a little more) and says how each went.
 */
export const triggerWebhook = defineVerb({
  scope: 'webhooks:write:{domain}',
  input: triggerWebhookSchema.extend({ webhook_id: webhookIdSchema }),
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:write:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run({ db, principal, now, config }, input) {
    const accountId = principal.targetAccountId;
    const webhook = await getWebhookInAccount(db, accountId, input.webhook_id);
    const [accountDomain] = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)))
      .limit(1);
    const domain = webhook.domains[0] ?? accountDomain?.domain ?? 'example.com';
    const at = now();
    const rows = [...new Set(input.events)].map((type) => ({
      id: newId(),
      accountId,
      webhookId: webhook.row.id,
      eventId: newId(),
      eventType: type,
      samplePayload: samplePayload(type, accountId, domain, at),
      isTest: true,
      status: 'pending',
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    }));
    await db.insert(webhookDeliveries).values(rows);
    signalWork('webhook-deliveries');

    const attempted = await waitForAttempts(
      db,
      rows.map((row) => row.id),
      config.webhooks.timeoutMs + 3000,
    );
    const data = attempted.map((row) => {
      const last = row.attemptLog.at(-1) ?? null;
      return {
        id: row.id,
        event_type: row.eventType,
        status: row.status as 'pending' | 'retrying' | 'delivered' | 'failed',
        response_status: last?.response_status ?? null,
        error: last?.error ?? null,
      };
    });
    const count = (status: string) => data.filter((item) => item.status === status).length;
    const waiting = data.length - count('delivered') - count('failed');
    const reasons = data
      .filter((item) => item.status === 'failed')
      .map((item) => `${item.event_type}: ${item.error ?? 'failed'}`);
    return {
      message: `sent ${data.length} sample event${data.length === 1 ? '' : 's'}: ${count('delivered')} delivered, ${count('failed')} failed${waiting ? `, ${waiting} not attempted yet` : ''}${reasons.length ? ` (${reasons.join('; ')})` : ''}`,
      data,
    };
  },
});
