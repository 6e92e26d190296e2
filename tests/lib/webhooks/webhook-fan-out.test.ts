import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { sendMessage } from '@/lib/core/messages/send-message';
import { createWebhook } from '@/lib/core/webhooks/create-webhook';
import { as, newAccount } from '../../support/memory-services';
import {
  accountId,
  acmeId,
  at,
  base,
  ctx,
  deleteHook,
  deliveredEvent,
  deliveriesOf,
  hook,
  services,
  useWebhookOutbox,
  waitFor,
} from './webhook-outbox-fixture';

/**
 * The outbox's fan-out, without a server process: events written by the verbs and the engine's own
 * writers become deliveries (the trigger on `events`) for the enabled webhooks of their account whose
 * flag and scope match, and the real dispatcher loop sends each, signed, to a receiver on loopback.
 * Retries and failures are in webhook-dispatch.test.ts.
 */
useWebhookOutbox();

describe('fan-out (the trigger on events)', () => {
  it('an event reaches enabled webhooks of its account with the flag on, global or listing its domain', async () => {
    const global = await hook('/fan/global', { on_delivered: true });
    const scoped = await hook('/fan/scoped', { scope: 'scoped', domains: ['acme.example'], on_delivered: true });
    const otherDomain = await hook('/fan/other', { scope: 'scoped', domains: ['other.example'], on_delivered: true });
    const flagOff = await hook('/fan/flag-off', { on_opened: true });
    const disabled = await hook('/fan/disabled', { on_delivered: true, enabled: false });
    const stranger = await newAccount(services, 'Stranger');
    const foreign = await createWebhook(as(services, stranger.principal), {
      name: 'foreign',
      url: `${base}/fan/foreign`,
      scope: 'global',
      on_delivered: true,
    });

    const message = await deliveredEvent(acmeId);
    const counts = await Promise.all(
      [global, scoped, otherDomain, flagOff, disabled, foreign].map(
        async (webhook) => (await deliveriesOf(webhook.id)).length,
      ),
    );
    expect(counts).toEqual([1, 1, 0, 0, 0, 0]);
    const [delivery] = await deliveriesOf(global.id);
    expect(delivery).toMatchObject({ accountId, eventType: 'message.delivered', isTest: false });

    // Dispatched: the documented body, no internal fields, signed with the webhook's secret.
    const [request] = await waitFor(
      () => at('/fan/global'),
      (requests) => requests.length === 1,
    );
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      type: 'message.delivered',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      webhook_id: global.id,
      data: {
        account_id: accountId,
        event: 'on_delivered',
        from: message.sender,
        recipient: message.recipient,
        subject: 'Hi',
        message_id_header: message.messageIdHeader,
        id: message.id,
        is_bot: false,
      },
    });
    expect(request.headers['webhook-id']).toBe(delivery.id);
    expect(
      new Webhook(global.secret, { format: 'raw' }).verify(request.body, request.headers as Record<string, string>),
    ).toEqual(body);
    for (const webhook of [global, scoped]) await deleteHook(webhook.id);
  });

  it('acceptance (one statement for every recipient) writes a delivery per recipient for on_reception', async () => {
    const webhook = await hook('/fan/reception', { on_reception: true });
    const sent = await sendMessage(ctx(), {
      from: { email: 'news@acme.example' },
      recipients: [{ email: 'a@rcpt.example' }, { email: 'b@rcpt.example' }, { email: 'c@rcpt.example' }],
      subject: 'Hi',
      text_content: 'Hi',
    });
    expect(sent.data).toHaveLength(3);
    const rows = await deliveriesOf(webhook.id);
    expect(rows.map((row) => row.eventType)).toEqual(['message.reception', 'message.reception', 'message.reception']);
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(3);
    const requests = await waitFor(
      () => at('/fan/reception'),
      (list) => list.length === 3,
    );
    expect(requests.map((request) => JSON.parse(request.body).data.recipient).sort()).toEqual([
      'a@rcpt.example',
      'b@rcpt.example',
      'c@rcpt.example',
    ]);
    await deleteHook(webhook.id);
  });

  it('suppression.created reaches webhooks scoped to its sending domain (from its payload)', async () => {
    const scoped = await hook('/fan/suppression', {
      scope: 'scoped',
      domains: ['other.example'],
      on_suppression_created: true,
    });
    const now = services.now();
    const payload = {
      account_id: accountId,
      recipient: 'x@rcpt.example',
      created_at: now.toISOString(),
      expires_at: now.toISOString(),
      reason: 'hard bounce',
      sending_domain: 'other.example',
    };
    await recordEvent(services.db, { accountId, type: 'suppression.created', at: now, payload });
    await recordEvent(services.db, {
      accountId,
      type: 'suppression.created',
      at: now,
      payload: { ...payload, sending_domain: 'acme.example' },
    });
    expect(await deliveriesOf(scoped.id)).toHaveLength(1);
    const [request] = await waitFor(
      () => at('/fan/suppression'),
      (list) => list.length === 1,
    );
    expect(JSON.parse(request.body)).toMatchObject({
      type: 'suppression.created',
      webhook_id: scoped.id,
      data: payload,
    });
    await deleteHook(scoped.id);
  });
});
