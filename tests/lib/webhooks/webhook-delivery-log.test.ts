import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import { listWebhookDeliveries } from '@/lib/core/webhooks/list-webhook-deliveries';
import { unsafePurgeExpiredWebhookDeliveries } from '@/lib/core/webhooks/purge-expired-webhook-deliveries';
import { resendWebhookDelivery } from '@/lib/core/webhooks/resend-webhook-delivery';
import { accounts } from '@/lib/db/schema';
import { as, keyPrincipal, newAccount } from '../../support/memory-services';
import {
  accountId,
  acmeId,
  ctx,
  deleteHook,
  deliveredEvent,
  deliveriesOf,
  hook,
  longAnswers,
  script,
  services,
  useWebhookOutbox,
  waitFor,
} from './webhook-outbox-fixture';

/**
 * The outbox's delivery log, without a server process: the dashboard verbs that list a webhook's
 * deliveries and show one (tenancy and scopes), the first 1 KiB kept of a long answer, and the log
 * purged with the account's metadata retention. Deliveries are made by the real dispatcher loop
 * calling a receiver on loopback.
 */
useWebhookOutbox();

describe('the delivery log (dashboard verbs)', () => {
  it("lists a webhook's deliveries newest first; another account's ids are 404; a key without webhook scopes is 403", async () => {
    const webhook = await hook('/log', { on_delivered: true });
    script.set('/log', [200, 200]);
    await deliveredEvent(acmeId);
    await deliveredEvent(acmeId);
    const rows = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list.length === 2 && list.every((row) => row.status === 'delivered'),
    );
    const page = await listWebhookDeliveries(ctx(), { webhook_id: webhook.id, limit: 100 });
    expect(page.items.map((item) => item.id)).toEqual(
      rows
        .map((row) => row.id)
        .sort()
        .reverse(),
    );
    expect(page.items[0]).toMatchObject({
      event_type: 'message.delivered',
      status: 'delivered',
      attempts: 1,
      is_test: false,
      last_attempt: { response_status: 200, response_body: 'ok', error: null },
    });

    const stranger = await newAccount(services, 'Log stranger');
    const theirs = as(services, stranger.principal);
    const ids = { webhook_id: webhook.id, delivery_id: rows[0].id };
    await expect(listWebhookDeliveries(theirs, { webhook_id: webhook.id, limit: 100 })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(getWebhookDelivery(theirs, ids)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(resendWebhookDelivery(theirs, ids)).rejects.toMatchObject({ kind: 'not_found' });
    // A delivery of another webhook of the same account is not found under this one.
    const other = await hook('/log-other', { on_opened: true });
    await expect(getWebhookDelivery(ctx(), { webhook_id: other.id, delivery_id: rows[0].id })).rejects.toMatchObject({
      kind: 'not_found',
    });

    const unscoped = as(services, keyPrincipal(accountId, ['domains:read']));
    await expect(getWebhookDelivery(unscoped, ids)).rejects.toMatchObject({ kind: 'forbidden' });
    const reader = as(services, keyPrincipal(accountId, ['webhooks:read:all']));
    expect((await getWebhookDelivery(reader, ids)).id).toBe(rows[0].id);
    await expect(resendWebhookDelivery(reader, ids)).rejects.toMatchObject({ kind: 'forbidden' });
    await deleteHook(webhook.id);
    await deleteHook(other.id);
  });

  it('keeps only the first 1 KiB of a long answer', async () => {
    const webhook = await hook('/long', { on_delivered: true });
    script.set('/long', [201]);
    longAnswers.add('/long');
    await deliveredEvent(acmeId);
    const [row] = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'delivered',
    );
    expect(row.attemptLog[0].response_status).toBe(201);
    expect(row.attemptLog[0].response_body).toHaveLength(1024);
    await deleteHook(webhook.id);
  });
});

describe('retention', () => {
  it("the delivery log goes with the account's metadata retention", async () => {
    const webhook = await hook('/retention', { on_delivered: true });
    await deliveredEvent(acmeId);
    await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.status === 'delivered',
    );
    await services.db.update(accounts).set({ messageMetadataRetention: 2 }).where(eq(accounts.id, accountId));
    expect(
      (await unsafePurgeExpiredWebhookDeliveries(services.db, new Date(services.now().getTime() + 25 * 3600_000)))
        .deliveries,
    ).toBe(0);
    expect(
      (await unsafePurgeExpiredWebhookDeliveries(services.db, new Date(services.now().getTime() + 49 * 3600_000)))
        .deliveries,
    ).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(webhook.id)).toHaveLength(0);
  });
});
