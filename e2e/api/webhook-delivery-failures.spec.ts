import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import type { ApiClient } from '../support/client';
import { BACKGROUND_POLL_INTERVALS } from '../support/sending';
import { startWebhookDeliverySuite, type WebhookDeliverySuite } from '../support/webhook-delivery-suite';
import type { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhook deliveries that fail, on a server of its own that may call loopback with fast retries
 * (WEBHOOK_RETRY_SCHEDULE=1,1,1, disabled after 3 failures): a 500 retried with the same webhook-id and
 * body, a redirect not followed, and a run of failures that disables the webhook until it is re-enabled.
 * The events of a successful delivery are in webhook-delivery.spec.ts.
 */
const stamp = Date.now().toString(36);

test.describe('delivering events (a server that may call loopback, an HTTPS receiver)', () => {
  let suite: WebhookDeliverySuite;
  let receiver: WebhookReceiver;
  let api: ApiClient;
  let hooks: WebhookDeliverySuite['hooks'];
  let sendSandbox: WebhookDeliverySuite['sendSandbox'];
  let waitForHooks: WebhookDeliverySuite['waitForHooks'];

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    suite = await startWebhookDeliverySuite(stamp);
    ({ receiver, api, hooks, sendSandbox, waitForHooks } = suite);
  });

  test.afterAll(async () => {
    await suite?.stop();
  });

  test('a 500 is retried with the same webhook-id and body, and the 2xx that follows counts as the success', async () => {
    const receiverPath = `/retry-${stamp}`;
    receiver.answer(receiverPath, { status: 500, body: 'busy' }, { status: 204, body: '' });
    const created = (
      await api.post(hooks(), { name: 'Retry', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })
    ).body;
    await sendSandbox('retry');
    const [first, second] = await waitForHooks(receiverPath, (list) => list.length >= 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.at - first.at).toBeGreaterThanOrEqual(800);
    const verifier = new Webhook(created.secret, { format: 'raw' });
    expect(verifier.verify(second.body, second.headers as Record<string, string>)).toMatchObject({
      type: 'message.delivered',
    });
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count).toBe(1);
    expect((await api.get(hooks(`/${created.id}`))).body).toMatchObject({
      error_count: 1,
      errors_since_last_success: 0,
      enabled: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.to(receiverPath)).toHaveLength(2);
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const receiverPath = `/moved-${stamp}`;
    receiver.answer(receiverPath, { status: 200, body: 'ok' });
    const created = (
      await api.post(hooks(), {
        name: 'Redirected',
        url: receiver.url(receiverPath),
        scope: 'global',
        on_delivered: true,
      })
    ).body;
    const hop = `/hop-${stamp}`;
    // The receiver answers 307 from this path; the server must not go on to the other one.
    receiver.answer(hop, { status: 307, body: 'moved' });
    await api.put(hooks(`/${created.id}`), { url: receiver.url(hop) });
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: ['message.delivered'] });
    expect(triggered.body.data[0]).toMatchObject({
      status: 'failed',
      response_status: 307,
      error: expect.stringMatching(/^redirect not followed/),
    });
    expect(receiver.to(receiverPath)).toHaveLength(0);
  });

  test('a run of failures disables the webhook with why and when; nothing more is sent; re-enabling resets the run', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/down-${stamp}`;
    receiver.answer(receiverPath, { status: 503, body: 'down for maintenance' });
    const created = (
      await api.post(hooks(), { name: 'Down', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })
    ).body;
    // One delivery: its first three attempts (of four on this schedule) fail, and the third disables the webhook.
    await sendSandbox('down-1');
    await expect
      .poll(async () => (await api.get(hooks(`/${created.id}`))).body.enabled, {
        timeout: 30_000,
        intervals: BACKGROUND_POLL_INTERVALS,
      })
      .toBe(false);
    const disabled = (await api.get(hooks(`/${created.id}`))).body;
    expect(disabled).toMatchObject({
      enabled: false,
      errors_since_last_success: 3,
      success_count: 0,
      disabled_reason: expect.stringMatching(
        /^disabled after 3 failed deliveries in a row since .*HTTP 503 from the endpoint$/,
      ),
      disabled_at: expect.any(String),
    });
    // Mailstead turned it off, not a person: the audit log says so, with no address or request.
    const audited = await api.get(api.account(`/audit-events?action=webhook.disable&resource_id=${created.id}`));
    expect(audited.body.data).toEqual([
      expect.objectContaining({
        actor: { type: 'system', id: null, label: null },
        resource: { type: 'webhook', id: created.id },
        ip: null,
        request_id: null,
        changes: ['enabled'],
      }),
    ]);
    const sentBefore = receiver.to(receiverPath).length;
    expect(sentBefore).toBe(3);
    await sendSandbox('down-2');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.to(receiverPath)).toHaveLength(sentBefore);
    // A disabled webhook is listed as such.
    expect((await api.get(hooks('?enabled=false'))).body.data.map((item: { id: string }) => item.id)).toContain(
      created.id,
    );

    receiver.answer(receiverPath, { status: 200, body: 'back' });
    const enabled = await api.put(hooks(`/${created.id}`), { enabled: true });
    expect(enabled.body).toMatchObject({
      enabled: true,
      errors_since_last_success: 0,
      disabled_reason: null,
      disabled_at: null,
      error_count: 3,
    });
    await sendSandbox('down-3');
    await expect
      .poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count, {
        timeout: 20_000,
        intervals: BACKGROUND_POLL_INTERVALS,
      })
      .toBe(1);
  });
});
