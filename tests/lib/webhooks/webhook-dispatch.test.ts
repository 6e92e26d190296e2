import { describe, expect, it, onTestFinished } from 'vitest';
import { getWebhook } from '@/lib/core/webhooks/get-webhook';
import { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import { resendWebhookDelivery } from '@/lib/core/webhooks/resend-webhook-delivery';
import { triggerWebhook } from '@/lib/core/webhooks/trigger-webhook';
import { updateWebhook } from '@/lib/core/webhooks/update-webhook';
import type { webhookDeliveries } from '@/lib/db/schema';
import {
  acmeId,
  at,
  base,
  ctx,
  deleteHook,
  deliveredEvent,
  deliveriesOf,
  hook,
  script,
  services,
  useWebhookOutbox,
  waitFor,
} from './webhook-outbox-fixture';

/**
 * The outbox's dispatch, without a server process: the real dispatcher loop calls a receiver on
 * loopback, retries on the schedule on the test's clock, fails a delivery once the schedule is used
 * up, follows no redirect, times out, disables a webhook after a run of failures, backs off a failing
 * endpoint as a whole, and sends signed samples on trigger. Fan-out is in webhook-fan-out.test.ts.
 */
useWebhookOutbox();

describe('dispatch', () => {
  it('a 500 is retried on the schedule with the same webhook-id, then the 2xx counts as a success', async () => {
    const webhook = await hook('/retry', { on_delivered: true });
    script.set('/retry', [500]);
    await deliveredEvent(acmeId);
    const [failed] = await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.status === 'retrying',
    );
    expect(failed.attemptLog).toEqual([
      {
        at: expect.any(String),
        response_status: 500,
        latency_ms: expect.any(Number),
        error: 'HTTP 500 from the endpoint',
        response_body: 'status 500',
      },
    ]);
    // The first retry is due after 1 s (10% either way) on the clock.
    expect(failed.nextAttemptAt!.getTime() - Date.parse(failed.attemptLog[0].at)).toBeGreaterThanOrEqual(900);
    expect(at('/retry')).toHaveLength(1);
    services.clock.advance(1200);
    const [done] = await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(done).toMatchObject({ attempts: 2, nextAttemptAt: null, lockedBy: null });
    const [first, second] = at('/retry');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({
      success_count: 1,
      error_count: 1,
      errors_since_last_success: 0,
      enabled: true,
    });
    await deleteHook(webhook.id);
  });

  it('a delivery fails once the schedule is used up', async () => {
    const webhook = await hook('/exhausted', { on_delivered: true });
    script.set('/exhausted', [503, 503, 503]);
    await deliveredEvent(acmeId);
    await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.attempts === 1,
    );
    services.clock.advance(1200);
    await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.attempts === 2,
    );
    services.clock.advance(2400);
    const [row] = await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.attempts === 3,
    );
    expect(row).toMatchObject({ status: 'failed', nextAttemptAt: null });
    await deleteHook(webhook.id);
  });

  it('a redirect is not followed, and no answer within the timeout is a failed attempt', async () => {
    const webhook = await hook('/redirect', { on_delivered: true });
    script.set('/redirect', ['redirect']);
    await deliveredEvent(acmeId);
    const [row] = await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.attempts === 1,
    );
    expect(row.attemptLog[0]).toMatchObject({
      response_status: 302,
      error: expect.stringMatching(/^redirect not followed \(302 to http/),
    });
    expect(at('/elsewhere')).toHaveLength(0);
    await updateWebhook(ctx(), { webhook_id: webhook.id, url: `${base}/hang` });
    script.set('/hang', ['hang']);
    services.clock.advance(1200);
    const [timedOut] = await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) => rows[0]?.attempts === 2,
      15_000,
    );
    expect(timedOut.attemptLog[1]).toMatchObject({ response_status: null, error: 'timed out after 2 s' });
    expect(timedOut.attemptLog[1].latency_ms).toBeGreaterThanOrEqual(1900);
    await deleteHook(webhook.id);
  });

  it('a run of failures disables the webhook with why and when, ends its waiting deliveries; re-enabling resets the run', async () => {
    const webhook = await hook('/dead', { on_delivered: true });
    script.set('/dead', [500, 500, 500, 500]);
    for (let i = 0; i < 3; i++) await deliveredEvent(acmeId);
    const disabled = await waitFor(
      () => getWebhook(ctx(), { webhook_id: webhook.id }),
      (value) => !value.enabled,
    );
    expect(disabled).toMatchObject({
      enabled: false,
      errors_since_last_success: 3,
      error_count: 3,
      disabled_reason: expect.stringMatching(
        /^disabled after 3 failed deliveries in a row since .*: HTTP 500 from the endpoint$/,
      ),
      disabled_at: expect.any(String),
    });
    const rows = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list.every((row) => row.status === 'failed'),
    );
    expect(rows).toHaveLength(3);
    // New events are not queued for a disabled webhook, and nothing more is sent.
    await deliveredEvent(acmeId);
    expect(await deliveriesOf(webhook.id)).toHaveLength(3);
    services.clock.advance(5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(at('/dead')).toHaveLength(3);
    await expect(resendWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id })).rejects.toThrow(
      /disabled/,
    );

    const enabled = await updateWebhook(ctx(), { webhook_id: webhook.id, enabled: true });
    expect(enabled).toMatchObject({
      enabled: true,
      errors_since_last_success: 0,
      disabled_reason: null,
      disabled_at: null,
      error_count: 3,
    });
    // Send again: the same event and webhook-id, attempted now.
    expect(await resendWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id })).toEqual({
      message: expect.stringMatching(/queued to be sent again/),
    });
    await waitFor(
      () => at('/dead'),
      (list) => list.length === 4,
    );
    const detail = await waitFor(
      () => getWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id }),
      (value) => value.status !== 'pending',
    );
    expect(detail.status).toBe('retrying');
    expect(at('/dead')[3].headers['webhook-id']).toBe(rows[0].id);
    expect(detail.payload).toEqual(JSON.parse(at('/dead')[3].body));
    expect(detail.attempts_log.map((entry) => entry.error)).toEqual([
      'HTTP 500 from the endpoint',
      'not sent: the webhook was disabled after a run of failed deliveries',
      'HTTP 500 from the endpoint',
    ]);
    await deleteHook(webhook.id);
  });

  it('a failing endpoint is backed off as a whole: one probe at a time, the other deliveries untouched, and a success lets them all through', async () => {
    const webhook = await hook('/circuit', { on_delivered: true });
    // Not disabled by this run of failures (this file's servers disable after 3).
    const { disableAfterFailures } = services.config.webhooks;
    services.config.webhooks.disableAfterFailures = 100;
    onTestFinished(() => void (services.config.webhooks.disableAfterFailures = disableAfterFailures));
    script.set('/circuit', Array(50).fill(500));
    for (let i = 0; i < 10; i++) await deliveredEvent(acmeId);
    // The first attempts (at most the per-endpoint limit) fail and open the circuit.
    const settled = (rows: (typeof webhookDeliveries.$inferSelect)[]) =>
      rows.every((row) => row.lockedBy === null) && rows.some((row) => row.attempts > 0);
    await waitFor(() => deliveriesOf(webhook.id), settled);
    const opened = at('/circuit').length;
    expect(opened).toBeGreaterThanOrEqual(1);
    expect(opened).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/circuit')).toHaveLength(opened);
    const untouched = (await deliveriesOf(webhook.id)).filter((row) => row.attempts === 0);
    expect(untouched).toHaveLength(10 - opened);
    expect(untouched.map((row) => row.status)).toEqual(untouched.map(() => 'pending'));

    // After the backoff (at most 2 s on this schedule), one probe, not one attempt per delivery; it fails, and the endpoint waits again.
    services.clock.advance(2000);
    await waitFor(
      () => at('/circuit'),
      (requests) => requests.length === opened + 1,
    );
    await waitFor(() => deliveriesOf(webhook.id), settled);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/circuit')).toHaveLength(opened + 1);
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({
      errors_since_last_success: opened + 1,
      enabled: true,
    });

    // The endpoint is back: a sample sent now gets through, and the waiting deliveries follow without waiting out the backoff.
    script.set('/circuit', []);
    expect(
      (await triggerWebhook(ctx(), { webhook_id: webhook.id, events: ['message.delivered'] })).data[0].status,
    ).toBe('delivered');
    await waitFor(
      () => deliveriesOf(webhook.id),
      (rows) =>
        rows.filter((row) => !row.isTest && row.attempts === 0).length === 0 &&
        rows.every((row) => row.lockedBy === null),
    );
    // Deliveries that failed keep their own retry schedule: due after their delay, then delivered.
    services.clock.advance(3000);
    const rows = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list.every((row) => row.status === 'delivered'),
    );
    expect(rows.filter((row) => !row.isTest)).toHaveLength(10);
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({
      errors_since_last_success: 0,
      success_count: 10,
    });
    await deleteHook(webhook.id);
  }, 30_000);

  it('trigger sends signed samples of the chosen types and answers how each went', async () => {
    const webhook = await hook('/trigger', { on_delivered: true });
    script.set('/trigger', [200, 500]);
    const result = await triggerWebhook(ctx(), {
      webhook_id: webhook.id,
      events: ['message.clicked', 'domain.dns_error'],
    });
    // Both are attempted at once, so which one meets the 500 is not fixed; the answer keeps request order.
    expect(result.data.map((item) => item.event_type)).toEqual(['message.clicked', 'domain.dns_error']);
    expect(result.data.map((item) => [item.status, item.response_status]).sort()).toEqual([
      ['delivered', 200],
      ['failed', 500],
    ]);
    expect(result.message).toMatch(
      /^sent 2 sample events: 1 delivered, 1 failed \((message\.clicked|domain\.dns_error): HTTP 500 from the endpoint\)$/,
    );
    const bodies = at('/trigger').map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type).sort()).toEqual(['domain.dns_error', 'message.clicked']);
    expect(bodies.find((body) => body.type === 'message.clicked').data).toMatchObject({
      url: expect.any(String),
      user_agent: expect.any(String),
      ip: expect.any(String),
      is_bot: false,
      event: 'on_clicked',
    });
    // Samples do not count, and are not retried.
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({ success_count: 0, error_count: 0 });
    await deleteHook(webhook.id);
  });
});
