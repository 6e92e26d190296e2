import http from 'node:http';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/record-event';
import { sendMessage } from '@/lib/core/messages/send-message';
import { createWebhook } from '@/lib/core/webhooks/create-webhook';
import { getWebhook } from '@/lib/core/webhooks/get-webhook';
import { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import { unsafePurgeExpiredWebhookDeliveries } from '@/lib/core/webhooks/purge-expired-webhook-deliveries';
import { resendWebhookDelivery } from '@/lib/core/webhooks/resend-webhook-delivery';
import { triggerWebhook } from '@/lib/core/webhooks/trigger-webhook';
import { updateWebhook } from '@/lib/core/webhooks/update-webhook';
import { accounts, domains, webhookDeliveries } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { startWebhookDispatcher } from '@/lib/webhooks/webhook-dispatcher';
import { listWebhookDeliveries } from '@/lib/core/webhooks/list-webhook-deliveries';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../support/memory-services';

/**
 * The outbox end to end without a server process: events written by the verbs and the engine's own
 * writers fan out (the trigger on `events`), the real dispatcher loop calls a receiver on loopback,
 * retries on the test's clock, and disables a webhook after a run of failures.
 */
type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
// Per path, the statuses to answer in turn (then 200); 'hang' never answers.
const script = new Map<string, (number | 'hang' | 'redirect')[]>();
// Paths whose answer is 200 kB long.
const longAnswers = new Set<string>();
let receiver: http.Server;
let base: string;
let services: TestServices;
let principal: Principal;
let accountId: string;
let acmeId: string;
let dispatcher: { stop: () => Promise<void> };

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      const next = script.get(req.url!)?.shift() ?? 200;
      if (next === 'hang') return;
      if (next === 'redirect') return res.writeHead(302, { location: `${base}/elsewhere` }).end();
      if (longAnswers.has(req.url!)) return res.writeHead(next, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
      res.writeHead(next, { 'content-type': 'text/plain' }).end(next === 200 ? 'ok' : `status ${next}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  services = await memoryServices();
  // The clock starts at the real time, so that the receiver's signature check accepts the timestamps.
  services.clock.advance(Date.now() - services.now().getTime());
  ({ principal, accountId } = await newAccount(services));
  for (const name of ['acme.example', 'other.example']) {
    const domain = await createDomain(as(services, principal), { domain: name });
    services.dns.publishRecords(domain.dns_records);
    await checkDomainDns(as(services, principal), { domain: name });
  }
  acmeId = (await services.db.select().from(domains).where(eq(domains.domain, 'acme.example')))[0].id;
  dispatcher = await startWebhookDispatcher(services, { workerId: 'test-worker', isOnlyProcess: true });
}, 60_000);

afterAll(async () => {
  await dispatcher?.stop();
  await services?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const ctx = () => as(services, principal);
const hook = (path: string, fields: Record<string, unknown>) => createWebhook(ctx(), { name: path, url: `${base}${path}`, scope: 'global', ...fields });
const deliveriesOf = (webhookId: string) => services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
const at = (path: string) => received.filter((request) => request.path === path);

async function waitFor<T>(read: () => Promise<T> | T, isDone: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function deliveredEvent(domainId: string, type: 'message.delivered' | 'message.opened' = 'message.delivered') {
  const message = { id: newId(), accountId, sender: 'news@acme.example', recipient: 'ann@rcpt.example', subject: 'Hi', messageIdHeader: `<${newId()}@acme.example>` };
  await recordEvent(services.db, { accountId, type, domainId, messageId: message.id, at: services.now(), payload: messageEventPayload(type, message, { response: '250 ok' }) });
  return message;
}

describe('fan-out (the trigger on events)', () => {
  it('an event reaches enabled webhooks of its account with the flag on, global or listing its domain', async () => {
    const global = await hook('/fan/global', { on_delivered: true });
    const scoped = await hook('/fan/scoped', { scope: 'scoped', domains: ['acme.example'], on_delivered: true });
    const otherDomain = await hook('/fan/other', { scope: 'scoped', domains: ['other.example'], on_delivered: true });
    const flagOff = await hook('/fan/flag-off', { on_opened: true });
    const disabled = await hook('/fan/disabled', { on_delivered: true, enabled: false });
    const stranger = await newAccount(services, 'Stranger');
    const foreign = await createWebhook(as(services, stranger.principal), { name: 'foreign', url: `${base}/fan/foreign`, scope: 'global', on_delivered: true });

    const message = await deliveredEvent(acmeId);
    const counts = await Promise.all([global, scoped, otherDomain, flagOff, disabled, foreign].map(async (webhook) => (await deliveriesOf(webhook.id)).length));
    expect(counts).toEqual([1, 1, 0, 0, 0, 0]);
    const [delivery] = await deliveriesOf(global.id);
    expect(delivery).toMatchObject({ accountId, eventType: 'message.delivered', isTest: false });

    // Dispatched: the documented body, no internal fields, signed with the webhook's secret.
    const [request] = await waitFor(() => at('/fan/global'), (requests) => requests.length === 1);
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      type: 'message.delivered',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      webhook_id: global.id,
      data: { account_id: accountId, event: 'on_delivered', from: message.sender, recipient: message.recipient, subject: 'Hi', message_id_header: message.messageIdHeader, id: message.id, is_bot: false },
    });
    expect(request.headers['webhook-id']).toBe(delivery.id);
    expect(new Webhook(global.secret, { format: 'raw' }).verify(request.body, request.headers as Record<string, string>)).toEqual(body);
    for (const webhook of [global, scoped]) await deleteHook(webhook.id);
  });

  it('acceptance (one statement for every recipient) writes a delivery per recipient for on_reception', async () => {
    const webhook = await hook('/fan/reception', { on_reception: true });
    const sent = await sendMessage(ctx(), { from: { email: 'news@acme.example' }, recipients: [{ email: 'a@rcpt.example' }, { email: 'b@rcpt.example' }, { email: 'c@rcpt.example' }], subject: 'Hi', text_content: 'Hi' });
    expect(sent.data).toHaveLength(3);
    const rows = await deliveriesOf(webhook.id);
    expect(rows.map((row) => row.eventType)).toEqual(['message.reception', 'message.reception', 'message.reception']);
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(3);
    const requests = await waitFor(() => at('/fan/reception'), (list) => list.length === 3);
    expect(requests.map((request) => JSON.parse(request.body).data.recipient).sort()).toEqual(['a@rcpt.example', 'b@rcpt.example', 'c@rcpt.example']);
    await deleteHook(webhook.id);
  });

  it('suppression.created reaches webhooks scoped to its sending domain (from its payload)', async () => {
    const scoped = await hook('/fan/suppression', { scope: 'scoped', domains: ['other.example'], on_suppression_created: true });
    const now = services.now();
    const payload = { account_id: accountId, recipient: 'x@rcpt.example', created_at: now.toISOString(), expires_at: now.toISOString(), reason: 'hard bounce', sending_domain: 'other.example' };
    await recordEvent(services.db, { accountId, type: 'suppression.created', at: now, payload });
    await recordEvent(services.db, { accountId, type: 'suppression.created', at: now, payload: { ...payload, sending_domain: 'acme.example' } });
    expect(await deliveriesOf(scoped.id)).toHaveLength(1);
    const [request] = await waitFor(() => at('/fan/suppression'), (list) => list.length === 1);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'suppression.created', webhook_id: scoped.id, data: payload });
    await deleteHook(scoped.id);
  });
});

describe('dispatch', () => {
  it('a 500 is retried on the schedule with the same webhook-id, then the 2xx counts as a success', async () => {
    const webhook = await hook('/retry', { on_delivered: true });
    script.set('/retry', [500]);
    await deliveredEvent(acmeId);
    const [failed] = await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.status === 'retrying');
    expect(failed.attemptLog).toEqual([{ at: expect.any(String), response_status: 500, latency_ms: expect.any(Number), error: 'the receiver answered 500', response_body: 'status 500' }]);
    // The first retry is due after 1 s (10% either way) on the clock.
    expect(failed.nextAttemptAt!.getTime() - Date.parse(failed.attemptLog[0].at)).toBeGreaterThanOrEqual(900);
    expect(at('/retry')).toHaveLength(1);
    services.clock.advance(1200);
    const [done] = await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.status === 'delivered');
    expect(done).toMatchObject({ attempts: 2, nextAttemptAt: null, lockedBy: null });
    const [first, second] = at('/retry');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({ success_count: 1, error_count: 1, errors_since_last_success: 0, enabled: true });
    await deleteHook(webhook.id);
  });

  it('a delivery fails once the schedule is used up', async () => {
    const webhook = await hook('/exhausted', { on_delivered: true });
    script.set('/exhausted', [503, 503, 503]);
    await deliveredEvent(acmeId);
    await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.attempts === 1);
    services.clock.advance(1200);
    await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.attempts === 2);
    services.clock.advance(2400);
    const [row] = await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.attempts === 3);
    expect(row).toMatchObject({ status: 'failed', nextAttemptAt: null });
    await deleteHook(webhook.id);
  });

  it('a redirect is not followed, and no answer within the timeout is a failed attempt', async () => {
    const webhook = await hook('/redirect', { on_delivered: true });
    script.set('/redirect', ['redirect']);
    await deliveredEvent(acmeId);
    const [row] = await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.attempts === 1);
    expect(row.attemptLog[0]).toMatchObject({ response_status: 302, error: expect.stringMatching(/^redirect not followed \(302 to http/) });
    expect(at('/elsewhere')).toHaveLength(0);
    await updateWebhook(ctx(), { webhook_id: webhook.id, url: `${base}/hang` });
    script.set('/hang', ['hang']);
    services.clock.advance(1200);
    const [timedOut] = await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.attempts === 2, 15_000);
    expect(timedOut.attemptLog[1]).toMatchObject({ response_status: null, error: 'no answer within 2000 ms' });
    expect(timedOut.attemptLog[1].latency_ms).toBeGreaterThanOrEqual(1900);
    await deleteHook(webhook.id);
  });

  it('a run of failures disables the webhook with why and when, ends its waiting deliveries; re-enabling resets the run', async () => {
    const webhook = await hook('/dead', { on_delivered: true });
    script.set('/dead', [500, 500, 500, 500]);
    for (let i = 0; i < 3; i++) await deliveredEvent(acmeId);
    const disabled = await waitFor(() => getWebhook(ctx(), { webhook_id: webhook.id }), (value) => !value.enabled);
    expect(disabled).toMatchObject({ enabled: false, errors_since_last_success: 3, error_count: 3, disabled_reason: expect.stringMatching(/^disabled after 3 failed deliveries in a row since .*: the receiver answered 500$/), disabled_at: expect.any(String) });
    const rows = await waitFor(() => deliveriesOf(webhook.id), (list) => list.every((row) => row.status === 'failed'));
    expect(rows).toHaveLength(3);
    // New events are not queued for a disabled webhook, and nothing more is sent.
    await deliveredEvent(acmeId);
    expect(await deliveriesOf(webhook.id)).toHaveLength(3);
    services.clock.advance(5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(at('/dead')).toHaveLength(3);
    await expect(resendWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id })).rejects.toThrow(/disabled/);

    const enabled = await updateWebhook(ctx(), { webhook_id: webhook.id, enabled: true });
    expect(enabled).toMatchObject({ enabled: true, errors_since_last_success: 0, disabled_reason: null, disabled_at: null, error_count: 3 });
    // Send again: the same event and webhook-id, attempted now.
    expect(await resendWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id })).toEqual({ message: expect.stringMatching(/queued to be sent again/) });
    await waitFor(() => at('/dead'), (list) => list.length === 4);
    const detail = await waitFor(() => getWebhookDelivery(ctx(), { webhook_id: webhook.id, delivery_id: rows[0].id }), (value) => value.status !== 'pending');
    expect(detail.status).toBe('retrying');
    expect(at('/dead')[3].headers['webhook-id']).toBe(rows[0].id);
    expect(detail.payload).toEqual(JSON.parse(at('/dead')[3].body));
    expect(detail.attempts_log.map((entry) => entry.error)).toEqual(['the receiver answered 500', 'not sent: the webhook was disabled after a run of failed deliveries', 'the receiver answered 500']);
    await deleteHook(webhook.id);
  });

  it('trigger sends signed samples of the chosen types and answers how each went', async () => {
    const webhook = await hook('/trigger', { on_delivered: true });
    script.set('/trigger', [200, 500]);
    const result = await triggerWebhook(ctx(), { webhook_id: webhook.id, events: ['message.clicked', 'domain.dns_error'] });
    // Both are attempted at once, so which one meets the 500 is not fixed; the answer keeps request order.
    expect(result.data.map((item) => item.event_type)).toEqual(['message.clicked', 'domain.dns_error']);
    expect(result.data.map((item) => [item.status, item.response_status]).sort()).toEqual([
      ['delivered', 200],
      ['failed', 500],
    ]);
    expect(result.message).toBe('sent 2 sample events: 1 delivered, 1 failed');
    const bodies = at('/trigger').map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type).sort()).toEqual(['domain.dns_error', 'message.clicked']);
    expect(bodies.find((body) => body.type === 'message.clicked').data).toMatchObject({ url: expect.any(String), user_agent: expect.any(String), ip: expect.any(String), is_bot: false, event: 'on_clicked' });
    // Samples do not count, and are not retried.
    expect(await getWebhook(ctx(), { webhook_id: webhook.id })).toMatchObject({ success_count: 0, error_count: 0 });
    await deleteHook(webhook.id);
  });
});

describe('the delivery log (dashboard verbs)', () => {
  it("lists a webhook's deliveries newest first; another account's ids are 404; a key without webhook scopes is 403", async () => {
    const webhook = await hook('/log', { on_delivered: true });
    script.set('/log', [200, 200]);
    await deliveredEvent(acmeId);
    await deliveredEvent(acmeId);
    const rows = await waitFor(() => deliveriesOf(webhook.id), (list) => list.length === 2 && list.every((row) => row.status === 'delivered'));
    const page = await listWebhookDeliveries(ctx(), { webhook_id: webhook.id, limit: 100 });
    expect(page.items.map((item) => item.id)).toEqual(rows.map((row) => row.id).sort().reverse());
    expect(page.items[0]).toMatchObject({ event_type: 'message.delivered', status: 'delivered', attempts: 1, is_test: false, last_attempt: { response_status: 200, response_body: 'ok', error: null } });

    const stranger = await newAccount(services, 'Log stranger');
    const theirs = as(services, stranger.principal);
    const ids = { webhook_id: webhook.id, delivery_id: rows[0].id };
    await expect(listWebhookDeliveries(theirs, { webhook_id: webhook.id, limit: 100 })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(getWebhookDelivery(theirs, ids)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(resendWebhookDelivery(theirs, ids)).rejects.toMatchObject({ kind: 'not_found' });
    // A delivery of another webhook of the same account is not found under this one.
    const other = await hook('/log-other', { on_opened: true });
    await expect(getWebhookDelivery(ctx(), { webhook_id: other.id, delivery_id: rows[0].id })).rejects.toMatchObject({ kind: 'not_found' });

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
    const [row] = await waitFor(() => deliveriesOf(webhook.id), (list) => list[0]?.status === 'delivered');
    expect(row.attemptLog[0].response_status).toBe(201);
    expect(row.attemptLog[0].response_body).toHaveLength(1024);
    await deleteHook(webhook.id);
  });
});

describe('retention', () => {
  it('the delivery log goes with the account\'s metadata retention', async () => {
    const webhook = await hook('/retention', { on_delivered: true });
    await deliveredEvent(acmeId);
    await waitFor(() => deliveriesOf(webhook.id), (rows) => rows[0]?.status === 'delivered');
    await services.db.update(accounts).set({ messageMetadataRetention: 2 }).where(eq(accounts.id, accountId));
    expect((await unsafePurgeExpiredWebhookDeliveries(services.db, new Date(services.now().getTime() + 25 * 3600_000))).deliveries).toBe(0);
    expect((await unsafePurgeExpiredWebhookDeliveries(services.db, new Date(services.now().getTime() + 49 * 3600_000))).deliveries).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(webhook.id)).toHaveLength(0);
  });
});

async function deleteHook(id: string) {
  const { deleteWebhook } = await import('@/lib/core/webhooks/delete-webhook');
  await deleteWebhook(ctx(), { webhook_id: id });
  expect(await deliveriesOf(id)).toHaveLength(0);
}
