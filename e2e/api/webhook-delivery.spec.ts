import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { fetch as undiciFetch } from 'undici';
import { parse } from 'yaml';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { contractFile } from '../support/contract';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort, startServer, tempDataDir, type ServerHandle } from '../support/server';
import { allFlags } from '../support/webhook-fixtures';
import { WebhookReceiver, hasValidSignature, type ReceivedHook } from '../support/webhook-receiver';

/**
 * The events webhooks deliver, on a server of its own that may call loopback, with an HTTPS receiver
 * it trusts (NODE_EXTRA_CA_CERTS) and fast retries: a real send's events, signed and checked with the
 * `standardwebhooks` package, a retry after a 500, the automatic disable. The webhooks resource itself
 * is in webhooks.spec.ts.
 */
const stamp = Date.now().toString(36);

/** The payload schemas of ahasend-webhooks.yaml, by event type; each payload must also carry no field the document does not name. */
const webhookContract = (() => {
  const file = contractFile ? path.join(path.dirname(contractFile), 'ahasend-webhooks.yaml') : null;
  const doc = file ? (parse(readFileSync(file, 'utf8')) as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>; components: { schemas: Record<string, any> } }) : null;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  if (doc) ajv.addSchema(doc, 'webhooks');
  const resolve = (ref: string): any => doc!.components.schemas[ref.split('/').at(-1)!];
  /** Property names a schema allows (allOf followed). */
  const names = (schema: any): Set<string> => {
    const found = new Set<string>(Object.keys(schema.properties ?? {}));
    for (const part of schema.allOf ?? []) for (const name of names(part.$ref ? resolve(part.$ref) : part)) found.add(name);
    return found;
  };
  return (payload: any): string[] => {
    if (!doc) return [];
    const ref = doc.webhooks[payload.type]?.post.requestBody.content['application/json'].schema.$ref;
    if (!ref) return [`${payload.type} is not a documented event type`];
    const validate = ajv.getSchema(`webhooks${ref}`) ?? ajv.compile({ $ref: `webhooks${ref}` });
    const problems = validate(payload) ? [] : (validate.errors ?? []).map((error) => `${payload.type}: ${error.instancePath} ${error.message}`);
    const schema = resolve(ref);
    const top = names(schema);
    // The documented top level, plus webhook_id, which the Go SDK's document requires on every event.
    top.add('webhook_id');
    problems.push(...Object.keys(payload).filter((key) => !top.has(key)).map((key) => `${payload.type}: undocumented field ${key}`));
    const dataSchema = [...(schema.allOf ?? [schema])].map((part: any) => (part.$ref ? resolve(part.$ref) : part)).find((part: any) => part.properties?.data)?.properties.data;
    if (dataSchema?.$ref) {
      const data = names(resolve(dataSchema.$ref));
      problems.push(...Object.keys(payload.data ?? {}).filter((key) => !data.has(key)).map((key) => `${payload.type}: undocumented data field ${key}`));
    }
    return problems;
  };
})();

test.describe('delivering events (a server that may call loopback, an HTTPS receiver)', () => {
  const hostname = `receiver-${stamp}.mailstead.test`;
  let receiver: WebhookReceiver;
  let server: ServerHandle;
  let mx: TestMx;
  let api: ApiClient;
  let accountId: string;
  let sender: string;
  let httpPort: number;
  let dropDatabase: (() => Promise<void>) | null = null;
  const rcptDomain = `wh-rcpt-${stamp}.example`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const tls = await WebhookReceiver.certificate(hostname);
    receiver = await new WebhookReceiver({ tls }).start();
    await new DnsControl().setA(hostname, '127.0.0.1');
    mx = await new TestMx().start();
    httpPort = await freePort();
    const dataDir = tempDataDir('ms-wh-');
    const caFile = path.join(dataDir, 'receiver-ca.pem');
    writeFileSync(caFile, tls.cert);
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      // The receiver's self-signed certificate, trusted as a customer's real one would be.
      NODE_EXTRA_CA_CERTS: caFile,
      SMTP_DELIVERY_PORT: String(mx.port),
      HTTP_PORT: String(httpPort),
      DELIVERY_POLL_MS: '100',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
      WEBHOOK_DISABLE_AFTER_SECONDS: '0',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_webhooks');
      dropDatabase = scratch.drop;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'webhooks-secret-webhooks-secret-000000001' });
    }
    server = await startServer({ env, dataDir });
    const account = await createAccountWithKey(server.env, 'Webhook delivery');
    accountId = account.accountId;
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    sender = `wh-send-${stamp}.example.com`;
    await verifiedDomain(api, sender);
    await new DnsControl().setA(`t.${sender}`, '127.0.0.1');
    await api.post(api.account(`/domains/${sender}/check-dns`));
    await routeDomainToLoopback(rcptDomain);
  });

  test.afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
    await mx?.stop();
    await dropDatabase?.();
  });

  const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
  const sendSandbox = async (label: string) => {
    const sent = await api.post(api.account('/messages'), { from: { email: `news@${sender}` }, recipients: [{ email: `${label}@${rcptDomain}` }], subject: label, text_content: 'x', sandbox: true });
    expect(sent.status).toBe(202);
    return sent.body.data[0].id as string;
  };
  const waitForHooks = async (receiverPath: string, isDone: (hooks: ReceivedHook[]) => boolean, timeout = 30_000) => {
    await expect.poll(() => isDone(receiver.to(receiverPath)), { timeout, intervals: BACKGROUND_POLL_INTERVALS, message: `webhook requests to ${receiverPath}` }).toBe(true);
    return receiver.to(receiverPath);
  };
  /** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
  const visit = (url: string) => {
    const parsed = new URL(url);
    return undiciFetch(`${parsed.protocol}//127.0.0.1:${parsed.port}${parsed.pathname}`, { headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' }, redirect: 'manual' });
  };

  test('a real send: reception, delivered, bounced, opened, clicked and suppression.created arrive signed over HTTPS, as ahasend-webhooks.yaml describes', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/events-${stamp}`;
    const created = await api.post(hooks(), { name: 'Everything', url: receiver.url(receiverPath), scope: 'scoped', domains: [sender], ...allFlags(true) });
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

    const expected = ['message.reception', 'message.reception', 'message.delivered', 'message.bounced', 'message.opened', 'message.clicked', 'suppression.created'];
    const received = await waitForHooks(receiverPath, (list) => expected.every((type) => list.filter((hook) => hook.json?.type === type).length >= expected.filter((t) => t === type).length));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const types = receiver.to(receiverPath).map((hook) => hook.json.type).sort();
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
      expect(() => new Webhook(Buffer.from('another secret').toString('base64')).verify(hook.body, hook.headers as Record<string, string>)).toThrow();
      expect(webhookContract(hook.json)).toEqual([]);
      expect(hook.json.webhook_id).toBe(webhookId);
      expect(hook.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect(new Set(received.map((hook) => hook.headers['webhook-id'])).size).toBe(received.length);

    const byType = (type: string) => received.filter((hook) => hook.json.type === type).map((hook) => hook.json.data);
    const message = { account_id: accountId, from: `news@${sender}`, subject: 'Webhook news', is_bot: false };
    expect(byType('message.delivered')).toEqual([{ ...message, event: 'on_delivered', recipient: reader, message_id_header: delivered.message_id, id: delivered.id }]);
    expect(byType('message.bounced')).toEqual([{ ...message, event: 'on_bounced', recipient: gone, message_id_header: expect.stringMatching(/^<.+@.+>$/), id: goneMessage.replace(/^<|@.*$/g, '') }]);
    expect(byType('message.reception').map((data) => data.recipient).sort()).toEqual([gone, reader]);
    expect(byType('message.opened')).toEqual([{ ...message, event: 'on_opened', recipient: reader, message_id_header: delivered.message_id, id: delivered.id, user_agent: expect.stringContaining('Thunderbird'), ip: '127.0.0.1' }]);
    expect(byType('message.clicked')).toEqual([
      { ...message, event: 'on_clicked', recipient: reader, message_id_header: delivered.message_id, id: delivered.id, user_agent: expect.stringContaining('Thunderbird'), ip: '127.0.0.1', url: 'https://shop.example/sale' },
    ]);
    expect(byType('suppression.created')).toEqual([{ account_id: accountId, recipient: gone, created_at: expect.any(String), expires_at: expect.any(String), reason: expect.any(String), sending_domain: sender }]);

    await expect.poll(async () => (await api.get(hooks(`/${webhookId}`))).body.success_count).toBe(expected.length);
    const after = (await api.get(hooks(`/${webhookId}`))).body;
    expect(after).toMatchObject({ error_count: 0, errors_since_last_success: 0, last_request_at: expect.any(String) });
  });

  test('a 500 is retried with the same webhook-id and body, and the 2xx that follows counts as the success', async () => {
    const receiverPath = `/retry-${stamp}`;
    receiver.answer(receiverPath, { status: 500, body: 'busy' }, { status: 204, body: '' });
    const created = (await api.post(hooks(), { name: 'Retry', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    await sendSandbox('retry');
    const [first, second] = await waitForHooks(receiverPath, (list) => list.length >= 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.at - first.at).toBeGreaterThanOrEqual(800);
    const verifier = new Webhook(created.secret, { format: 'raw' });
    expect(verifier.verify(second.body, second.headers as Record<string, string>)).toMatchObject({ type: 'message.delivered' });
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count).toBe(1);
    expect((await api.get(hooks(`/${created.id}`))).body).toMatchObject({ error_count: 1, errors_since_last_success: 0, enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.to(receiverPath)).toHaveLength(2);
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const receiverPath = `/moved-${stamp}`;
    receiver.answer(receiverPath, { status: 200, body: 'ok' });
    const created = (await api.post(hooks(), { name: 'Redirected', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    const hop = `/hop-${stamp}`;
    // The receiver answers 307 from this path; the server must not go on to the other one.
    receiver.answer(hop, { status: 307, body: 'moved' });
    await api.put(hooks(`/${created.id}`), { url: receiver.url(hop) });
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: ['message.delivered'] });
    expect(triggered.body.data[0]).toMatchObject({ status: 'failed', response_status: 307, error: expect.stringMatching(/^redirect not followed/) });
    expect(receiver.to(receiverPath)).toHaveLength(0);
  });

  test('a run of failures disables the webhook with why and when; nothing more is sent; re-enabling resets the run', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/down-${stamp}`;
    receiver.answer(receiverPath, { status: 503, body: 'down for maintenance' });
    const created = (await api.post(hooks(), { name: 'Down', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    // One delivery: its first three attempts (of four on this schedule) fail, and the third disables the webhook.
    await sendSandbox('down-1');
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.enabled, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(false);
    const disabled = (await api.get(hooks(`/${created.id}`))).body;
    expect(disabled).toMatchObject({
      enabled: false,
      errors_since_last_success: 3,
      success_count: 0,
      disabled_reason: expect.stringMatching(/^disabled after 3 failed deliveries in a row since .*the receiver answered 503$/),
      disabled_at: expect.any(String),
    });
    const sentBefore = receiver.to(receiverPath).length;
    expect(sentBefore).toBe(3);
    await sendSandbox('down-2');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.to(receiverPath)).toHaveLength(sentBefore);
    // A disabled webhook is listed as such.
    expect((await api.get(hooks('?enabled=false'))).body.data.map((item: { id: string }) => item.id)).toContain(created.id);

    receiver.answer(receiverPath, { status: 200, body: 'back' });
    const enabled = await api.put(hooks(`/${created.id}`), { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, errors_since_last_success: 0, disabled_reason: null, disabled_at: null, error_count: 3 });
    await sendSandbox('down-3');
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count, { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(1);
  });

  test('POST /webhooks/{id}/trigger (Mailstead extension the CLI uses) - signed samples of every chosen type, answered with how each went', async () => {
    const receiverPath = `/samples-${stamp}`;
    const created = (await api.post(hooks(), { name: 'Samples', url: receiver.url(receiverPath), scope: 'global' })).body;
    const all = ['message.reception', 'message.delivered', 'message.transient_error', 'message.failed', 'message.bounced', 'message.suppressed', 'message.opened', 'message.clicked', 'suppression.created', 'domain.dns_error'];
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: all });
    expect(triggered.status).toBe(200);
    expect(triggered.body.message).toBe('sent 10 sample events: 10 delivered, 0 failed');
    expect(triggered.body.data.map((item: { event_type: string; status: string; response_status: number }) => [item.event_type, item.status, item.response_status])).toEqual(all.map((type) => [type, 'delivered', 200]));
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
    expect(openapi.body.paths['/v2/accounts/{account_id}/webhooks/{webhook_id}/trigger'].post['x-mailstead-extension']).toBe(true);
  });
});
