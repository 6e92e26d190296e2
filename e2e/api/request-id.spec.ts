import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fetch } from 'undici';
import type { ApiClient } from '../support/client';
import { trustingAgent } from '../support/server';
import { newAccount, sharedServer } from '../support/shared';

/**
 * Every response carries X-Request-Id: the caller's when it is a sane token, else one of ours; the
 * log lines of the request carry the same id. On the shared server, which logs each API request (debug).
 */
const server = {
  ...sharedServer(),
  port: Number(new URL(sharedServer().baseUrl).port),
  logFile: path.join(sharedServer().dataDir, 'server.log'),
};
let api: ApiClient;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test.beforeAll(async () => {
  ({ api } = await newAccount('Request ids'));
});

test('a valid incoming X-Request-Id is echoed; the log line of the request carries it', async () => {
  const id = `trace-${Date.now()}.a_b:c-D`;
  const response = await api.get('/v2/ping', { headers: { 'x-request-id': id } });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-request-id')).toBe(id);
  await expect
    .poll(() =>
      readFileSync(server.logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes(id))
        .map((line) => JSON.parse(line)),
    )
    .toEqual([expect.objectContaining({ reqId: id, msg: 'api request', path: '/v2/ping', status: 200 })]);
});

const invalidIds: [string, string][] = [
  ['with spaces', 'not a token'],
  ['too long', 'a'.repeat(129)],
  ['with a slash', 'a/b'],
  ['with quotes', '"x"'],
];

for (const [name, id] of invalidIds) {
  test(`an X-Request-Id ${name} is replaced by a generated one`, async () => {
    const response = await api.get('/v2/ping', { headers: { 'x-request-id': id } });
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });
}

test('without one, each request gets its own generated id, also in its log line', async () => {
  const [first, second] = await Promise.all([api.get('/v2/ping'), api.get('/v2/ping')]);
  const ids = [first, second].map((response) => response.headers.get('x-request-id'));
  for (const id of ids) expect(id).toMatch(UUID);
  expect(ids[0]).not.toBe(ids[1]);
  await expect.poll(() => readFileSync(server.logFile, 'utf8').includes(`"reqId":"${ids[0]}"`)).toBe(true);
});

const responses: [string, () => Promise<{ status: number; headers: Headers }>, number][] = [
  ['2xx', () => api.get('/v2/ping', { checkContract: false }), 200],
  ['401 without a key', () => api.get('/v2/ping', { apiKey: null, checkContract: false }), 401],
  ['404 on an unknown path', () => api.get('/v2/no-such-thing', { checkContract: false }), 404],
  ['405 on a known path', () => api.post('/v2/ping', {}, { checkContract: false }), 405],
  ['400 on bad input', () => api.post(api.account('/api-keys'), { label: '' }, { checkContract: false }), 400],
  ['the OpenAPI document', () => api.get('/v2/openapi.json', { apiKey: null, checkContract: false }), 200],
];

for (const [name, request, status] of responses) {
  test(`present on ${name}`, async () => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });
}

test('present on the dashboard routes, echoing a valid one', async () => {
  const response = await fetch(`${server.baseUrl}/sign-in`, {
    headers: { 'x-request-id': 'dashboard-1' },
    dispatcher: trustingAgent(server.dataDir),
  });
  await response.arrayBuffer();
  expect(response.headers.get('x-request-id')).toBe('dashboard-1');
});

test('present on the refusal of plain HTTP', async () => {
  const reply = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = net.connect(server.port, '127.0.0.1', () =>
      socket.write('GET /v2/ping HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: plain-1\r\n\r\n'),
    );
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (text += data));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  expect(reply).toMatch(/^HTTP\/1\.1 400 /);
  expect(reply).toMatch(/\r\nX-Request-Id: plain-1\r\n/i);
});
