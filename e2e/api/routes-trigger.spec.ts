import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { WebhookReceiver, hasValidSignature } from '../support/webhook-receiver';

/**
 * POST /routes/{id}/trigger on a server of its own that may call a loopback receiver (the shared
 * server has no ALLOW_PRIVATE_NETWORKS): a signed sample message.routing, shaped by the route's
 * flags, leaves the route's counters alone. The rest of the routes resource is in routes.spec.ts.
 */
const stamp = Date.now().toString(36);
let suite: RouteServer;
let receiver: WebhookReceiver;
const domain = `rt-trigger-${stamp}.example.com`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  receiver = await new WebhookReceiver().start();
  suite = await startRouteServer('Route trigger');
  expect((await suite.api.post(suite.api.account('/domains'), { domain })).status).toBe(201);
});
test.afterAll(async () => {
  await suite?.stop();
  await receiver?.stop();
});

test('POST /routes/{id}/trigger - a signed sample message.routing reaches the receiver; the flags shape it; counters stay', async () => {
  const { api } = suite;
  const path = `/trigger-${stamp}`;
  const created = (
    await api.post(api.account('/routes'), {
      name: 'Sampled',
      url: receiver.url(path),
      recipient: `support@${domain}`,
      attachments: true,
      headers: true,
      strip_replies: true,
    })
  ).body;
  const triggered = await api.post(api.account(`/routes/${created.id}/trigger`), {});
  expect(triggered.status).toBe(200);
  expect(triggered.body).toEqual({
    message: expect.stringContaining('delivered'),
    data: [
      {
        id: expect.any(String),
        event_type: 'message.routing',
        status: 'delivered',
        response_status: 200,
        error: null,
      },
    ],
  });
  const [hook] = receiver.to(path);
  expect(hook.headers['webhook-id']).toBe(triggered.body.data[0].id);
  expect(hasValidSignature(hook, created.secret)).toBe(true);
  expect(
    new Webhook(created.secret, { format: 'raw' }).verify(hook.body, hook.headers as Record<string, string>),
  ).toEqual(hook.json);
  expect(hook.json).toMatchObject({
    type: 'message.routing',
    route_id: created.id,
    data: {
      to: `support@${domain}`,
      subject: expect.stringContaining('message.routing'),
      reply_from_plain_body: 'Thanks, that fixed it!\n',
      headers: expect.objectContaining({ 'X-Mailer': 'Mailstead sample' }),
    },
  });
  expect(hook.json.data.attachments.map((attachment: { filename: string }) => attachment.filename).sort()).toEqual([
    'logo.png',
    'notes.txt',
  ]);
  // A body of {} or none at all, as the CLI and SDK send it.
  const bare = await api.request('POST', api.account(`/routes/${created.id}/trigger`));
  expect(bare.status).toBe(200);
  expect((await api.get(api.account(`/routes/${created.id}`))).body).toMatchObject({
    success_count: 0,
    error_count: 0,
    last_request_at: null,
  });
});
