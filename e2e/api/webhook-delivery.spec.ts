import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { fetch as undiciFetch } from 'undici';
import type { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';
import { waitForStatus } from '../support/sending';
import { webhookContract } from '../support/webhook-contract';
import { startWebhookDeliverySuite, type WebhookDeliverySuite } from '../support/webhook-delivery-suite';
import { allFlags } from '../support/webhook-fixtures';
import { hasValidSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The events webhooks deliver, on a server of its own that may call loopback, with an HTTPS receiver
 * it trusts (NODE_EXTRA_CA_CERTS): a real send's events, signed and checked with the `standardwebhooks`
 * package against ahasend-webhooks.yaml, and the signed samples of POST /webhooks/{id}/trigger. Retries,
 * redirects and the automatic disable are in webhook-delivery-failures.spec.ts; the webhooks resource
 * itself is in webhooks.spec.ts.
 */
const stamp = Date.now().toString(36);

test.describe('delivering events (a server that may call loopback, an HTTPS receiver)', () => {
  let suite: WebhookDeliverySuite;
  let receiver: WebhookReceiver;
  let mx: TestMx;
  let api: ApiClient;
  let accountId: string;
  let sender: string;
  let rcptDomain: string;
  let hooks: WebhookDeliverySuite['hooks'];
  let waitForHooks: WebhookDeliverySuite['waitForHooks'];

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    suite = await startWebhookDeliverySuite(stamp);
    ({ receiver, mx, api, accountId, sender, rcptDomain, hooks, waitForHooks } = suite);
  });

  test.afterAll(async () => {
    await suite?.stop();
  });

  /** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
  const visit = (url: string) => {
    const parsed = new URL(url);
    return undiciFetch(`${parsed.protocol}//127.0.0.1:${parsed.port}${parsed.pathname}`, {
      headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' },
      redirect: 'manual',
    });
  };

  test('a real send: reception, delivered, bounced, opened, clicked and suppression.created arrive signed over HTTPS, as ahasend-webhooks.yaml describes', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/events-${stamp}`;
    const created = await api.post(hooks(), {
      name: 'Everything',
      url: receiver.url(receiverPath),
      scope: 'scoped',
      domains: [sender],
      ...allFlags(true),
    });
    expect(created.status).toBe(201);
    const { id: webhookId, secret } = created.body;
    const reader = `reader@${rcptDomain}`;
    const gone = `gone@${rcptDomain}`;
    mx.script(gone, { code: 550, message: '5.1.1 no such user' });
    const sent = await api.post(api.account('/messages'), {
      from: { email: `news@${sender}` },
      recipients: [{ email: reader }, { email: gone }],
      subject: 'Webhook news',
      html_content: '<html><body><p><a href="https://shop.example/sale">Sale</a></p></body></html>',
      tracking: { open: true, click: true },
    });
    expect(sent.status).toBe(202);
    const [readerMessage, goneMessage] = sent.body.data.map((item: { id: string }) => item.id);
    const delivered = await waitForStatus(api, readerMessage, 'Delivered');
    await waitForStatus(api, goneMessage, 'Bounced');
    const html = String(mx.for(reader)[0].parsed.html);
    const openUrl = html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)?.[1];
    const clickUrl = html.match(/href="([^"]+\/t\/c\/[^"]+)"/)?.[1];
    expect((await visit(openUrl!)).status).toBe(200);
    expect((await visit(clickUrl!)).status).toBe(302);

    const expected = [
      'message.reception',
      'message.reception',
      'message.delivered',
      'message.bounced',
      'message.opened',
      'message.clicked',
      'suppression.created',
    ];
    const received = await waitForHooks(receiverPath, (list) =>
      expected.every(
        (type) => list.filter((hook) => hook.json?.type === type).length >= expected.filter((t) => t === type).length,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const types = receiver
      .to(receiverPath)
      .map((hook) => hook.json.type)
      .sort();
    expect(types).toEqual([...expected].sort());

    // An independent verifier: the standardwebhooks package, given the secret's raw bytes.
    const verifier = new Webhook(secret, { format: 'raw' });
    for (const hook of received) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120);
      expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verifier.verify(hook.body, hook.headers as Record<string, string>)).toEqual(hook.json);
      expect(hasValidSignature(hook, secret)).toBe(true);
      expect(() =>
        new Webhook(Buffer.from('another secret').toString('base64')).verify(
          hook.body,
          hook.headers as Record<string, string>,
        ),
      ).toThrow();
      expect(webhookContract(hook.json)).toEqual([]);
      expect(hook.json.webhook_id).toBe(webhookId);
      expect(hook.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect(new Set(received.map((hook) => hook.headers['webhook-id'])).size).toBe(received.length);

    const byType = (type: string) => received.filter((hook) => hook.json.type === type).map((hook) => hook.json.data);
    const message = { account_id: accountId, from: `news@${sender}`, subject: 'Webhook news', is_bot: false };
    expect(byType('message.delivered')).toEqual([
      {
        ...message,
        event: 'on_delivered',
        recipient: reader,
        message_id_header: delivered.message_id,
        id: delivered.id,
      },
    ]);
    expect(byType('message.bounced')).toEqual([
      {
        ...message,
        event: 'on_bounced',
        recipient: gone,
        message_id_header: expect.stringMatching(/^<.+@.+>$/),
        id: goneMessage.replace(/^<|@.*$/g, ''),
      },
    ]);
    expect(
      byType('message.reception')
        .map((data) => data.recipient)
        .sort(),
    ).toEqual([gone, reader]);
    expect(byType('message.opened')).toEqual([
      {
        ...message,
        event: 'on_opened',
        recipient: reader,
        message_id_header: delivered.message_id,
        id: delivered.id,
        user_agent: expect.stringContaining('Thunderbird'),
        ip: '127.0.0.1',
      },
    ]);
    expect(byType('message.clicked')).toEqual([
      {
        ...message,
        event: 'on_clicked',
        recipient: reader,
        message_id_header: delivered.message_id,
        id: delivered.id,
        user_agent: expect.stringContaining('Thunderbird'),
        ip: '127.0.0.1',
        url: 'https://shop.example/sale',
      },
    ]);
    expect(byType('suppression.created')).toEqual([
      {
        account_id: accountId,
        recipient: gone,
        created_at: expect.any(String),
        expires_at: expect.any(String),
        reason: expect.any(String),
        sending_domain: sender,
      },
    ]);

    await expect.poll(async () => (await api.get(hooks(`/${webhookId}`))).body.success_count).toBe(expected.length);
    const after = (await api.get(hooks(`/${webhookId}`))).body;
    expect(after).toMatchObject({ error_count: 0, errors_since_last_success: 0, last_request_at: expect.any(String) });
  });

  test('POST /webhooks/{id}/trigger (Mailstead extension the CLI uses) - signed samples of every chosen type, answered with how each went', async () => {
    const receiverPath = `/samples-${stamp}`;
    const created = (await api.post(hooks(), { name: 'Samples', url: receiver.url(receiverPath), scope: 'global' }))
      .body;
    const all = [
      'message.reception',
      'message.delivered',
      'message.transient_error',
      'message.failed',
      'message.bounced',
      'message.suppressed',
      'message.opened',
      'message.clicked',
      'suppression.created',
      'domain.dns_error',
    ];
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: all });
    expect(triggered.status).toBe(200);
    expect(triggered.body.message).toBe('sent 10 sample events: 10 delivered, 0 failed');
    expect(
      triggered.body.data.map((item: { event_type: string; status: string; response_status: number }) => [
        item.event_type,
        item.status,
        item.response_status,
      ]),
    ).toEqual(all.map((type) => [type, 'delivered', 200]));
    const verifier = new Webhook(created.secret, { format: 'raw' });
    const received = receiver.to(receiverPath);
    expect(received.map((hook) => hook.json.type).sort()).toEqual([...all].sort());
    for (const hook of received) {
      expect(verifier.verify(hook.body, hook.headers as Record<string, string>)).toEqual(hook.json);
      expect(webhookContract(hook.json)).toEqual([]);
    }
    // Samples are not counted against the webhook.
    expect((await api.get(hooks(`/${created.id}`))).body).toMatchObject({ success_count: 0, error_count: 0 });
    const openapi = await api.get('/v2/openapi.json', { checkContract: false });
    expect(
      openapi.body.paths['/v2/accounts/{account_id}/webhooks/{webhook_id}/trigger'].post['x-mailstead-extension'],
    ).toBe(true);
  });
});
