import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generate } from 'selfsigned';
import { ownServer, newApi } from '../support/own-server';
import { freePort } from '../support/server';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Trying webhooks in a lab (ALLOW_PRIVATE_NETWORKS=true, a CA of its own in WEBHOOK_CA_FILE): http://
 * and localhost work, and every way an endpoint can fail is named in the test-send answer, which
 * reads the delivery log: TLS (self-signed, expired, reset), HTTP status, refused, DNS, timeout.
 */
const stamp = Date.now().toString(36);

async function certificate(hostname: string, validity: { from: Date; to: Date }) {
  const pems = await generate([{ name: 'commonName', value: hostname }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: validity.from,
    notAfterDate: validity.to,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: hostname }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

const day = 24 * 3600 * 1000;
const servers: { close: () => void }[] = [];
async function httpsEndpoint(tls: { cert: string; key: string }): Promise<number> {
  const server = https.createServer(tls, (req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'ms-lab-ca-')), 'lab-ca.pem');
const ports: Record<string, number> = {};

// Registered before ownServer's: the CA file exists when the server starts and reads it.
test.beforeAll(async () => {
  const now = Date.now();
  const trusted = await certificate('localhost', { from: new Date(now - day), to: new Date(now + 7 * day) });
  const expired = await certificate('localhost', { from: new Date(now - 30 * day), to: new Date(now - day) });
  const stranger = await certificate('localhost', { from: new Date(now - day), to: new Date(now + 7 * day) });
  // Both are trusted: the expired one must fail for its dates, not for who signed it.
  writeFileSync(caFile, `${trusted.cert}\n${expired.cert}`);
  ports.trusted = await httpsEndpoint(trusted);
  ports.expired = await httpsEndpoint(expired);
  ports.stranger = await httpsEndpoint(stranger);
});

const server = ownServer(
  { ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_CA_FILE: caFile, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_POLL_MS: '100' },
  'webhook-endpoints-secret-0000000000000001',
);
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // Accepts TCP, then drops it before any TLS: a broken proxy or a firewall's reset.
  const resetting = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
  servers.push(resetting);
  ports.reset = (resetting.address() as AddressInfo).port;
  ports.closed = await freePort();
});
test.afterAll(async () => {
  for (const one of servers) one.close();
  await receiver?.stop();
});

async function tryEndpoint(url: string) {
  const api = await newApi(server());
  const created = await api.post(api.account('/webhooks'), { name: 'lab', url, scope: 'global', on_delivered: true });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const triggered = await api.post(api.account(`/webhooks/${created.body.id}/trigger`), {
    events: ['message.delivered'],
  });
  expect(triggered.status).toBe(200);
  return triggered.body as {
    message: string;
    data: { status: string; response_status: number | null; error: string | null }[];
  };
}

test('with ALLOW_PRIVATE_NETWORKS, http://localhost:PORT is called (the system resolver: localhost, /etc/hosts)', async () => {
  const result = await tryEndpoint(`http://localhost:${receiver.port}/lab-${stamp}`);
  expect(result.data[0]).toMatchObject({ status: 'delivered', response_status: 200, error: null });
  expect(receiver.to(`/lab-${stamp}`)).toHaveLength(1);
});

test('with WEBHOOK_CA_FILE, an https endpoint whose certificate that CA vouches for is called', async () => {
  const result = await tryEndpoint(`https://localhost:${ports.trusted}/hook`);
  expect(result.data[0]).toMatchObject({ status: 'delivered', response_status: 200, error: null });
  expect(result.message).toBe('sent 1 sample event: 1 delivered, 0 failed');
});

const failures: [string, () => string, string][] = [
  [
    'a self-signed certificate no CA vouches for',
    () => `https://localhost:${ports.stranger}/hook`,
    'TLS: self-signed certificate',
  ],
  ['an expired certificate', () => `https://localhost:${ports.expired}/hook`, 'TLS: certificate has expired'],
  [
    'a reset before the TLS handshake',
    () => `https://localhost:${ports.reset}/hook`,
    'TLS: the endpoint closed the connection during the handshake',
  ],
  ['an answer of 500', () => `http://localhost:${receiver.port}/down-${stamp}`, 'HTTP 500 from the endpoint'],
  ['a closed port', () => `http://127.0.0.1:${ports.closed}/hook`, 'connection refused'],
  ['a name no DNS knows', () => 'https://nowhere.mailstead.test/hook', `DNS: no such host (nowhere.mailstead.test)`],
  ['an endpoint that never answers', () => `http://localhost:${receiver.port}/slow-${stamp}`, 'timed out after 2 s'],
];
for (const [name, url, reason] of failures) {
  test(`POST /webhooks/{id}/trigger - ${name} fails with "${reason}" in the answer and the delivery log`, async () => {
    receiver.answer(`/down-${stamp}`, { status: 500, body: 'down' });
    receiver.answer(`/slow-${stamp}`, { status: 200, body: 'late', delayMs: 4000 });
    const result = await tryEndpoint(url());
    expect(result.data[0]).toMatchObject({ status: 'failed', error: reason });
    expect(result.message).toBe(`sent 1 sample event: 0 delivered, 1 failed (message.delivered: ${reason})`);
  });
}
