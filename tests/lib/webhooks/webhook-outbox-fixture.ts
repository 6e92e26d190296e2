import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { createWebhook } from '@/lib/core/webhooks/create-webhook';
import { domains, webhookDeliveries } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { startWebhookDispatcher } from '@/lib/workers/webhook-loop';
import { as, memoryServices, newAccount, type TestServices } from '../../support/memory-services';

/**
 * What the outbox suites share, without a server process: a receiver on loopback that answers as
 * `script` tells it, an account with two verified domains on an in-memory PGlite of the suite's own,
 * and the real dispatcher loop over it on the test's clock; helpers to create webhooks, write events,
 * read deliveries and wait for them. A suite calls `useWebhookOutbox()` once at its top level.
 */
type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
// Per path, the statuses to answer in turn (then 200); 'hang' never answers.
export const script = new Map<string, (number | 'hang' | 'redirect')[]>();
// Paths whose answer is 200 kB long.
export const longAnswers = new Set<string>();
let receiver: http.Server;
export let base: string;
export let services: TestServices;
let principal: Principal;
export let accountId: string;
export let acmeId: string;
let dispatcher: { stop: () => Promise<void> };

export function useWebhookOutbox() {
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body });
        const next = script.get(req.url!)?.shift() ?? 200;
        if (next === 'hang') return;
        if (next === 'redirect') return res.writeHead(302, { location: `${base}/elsewhere` }).end();
        if (longAnswers.has(req.url!))
          return res.writeHead(next, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
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
}

export const ctx = () => as(services, principal);
export const hook = (path: string, fields: Record<string, unknown>) =>
  createWebhook(ctx(), { name: path, url: `${base}${path}`, scope: 'global', ...fields });
export const deliveriesOf = (webhookId: string) =>
  services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
export const at = (path: string) => received.filter((request) => request.path === path);

export async function waitFor<T>(
  read: () => Promise<T> | T,
  isDone: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function deliveredEvent(
  domainId: string,
  type: 'message.delivered' | 'message.opened' = 'message.delivered',
) {
  const message = {
    id: newId(),
    accountId,
    sender: 'news@acme.example',
    recipient: 'ann@rcpt.example',
    subject: 'Hi',
    messageIdHeader: `<${newId()}@acme.example>`,
  };
  await recordEvent(services.db, {
    accountId,
    type,
    domainId,
    messageId: message.id,
    at: services.now(),
    payload: messageEventPayload(type, message, { response: '250 ok' }),
  });
  return message;
}

export async function deleteHook(id: string) {
  const { deleteWebhook } = await import('@/lib/core/webhooks/delete-webhook');
  await deleteWebhook(ctx(), { webhook_id: id });
  expect(await deliveriesOf(id)).toHaveLength(0);
}
