import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGuardedHost } from '@/lib/core/shared/guarded-lookup';
import { checkLinksAndImages, extractLinksAndImages, MAX_URLS_CHECKED } from '@/lib/core/preflight/link-checks';
import { probeUrl, type ProbeOptions } from '@/lib/core/preflight/probe-url';
import { TestDns } from '../../../support/memory-services';

// One loopback server plays every website; the guard sees "public.test" as public (it maps to the
// server's address in these tests only) and everything else through the real guard, without private networks.
let server: http.Server;
let base: string;
const requests: { method: string; url: string; authorization?: string }[] = [];
let hugeBytesSent = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
    const path = request.url!;
    if (path === '/ok') return response.writeHead(200).end('fine');
    if (path === '/missing') return response.writeHead(404).end();
    if (path === '/head-refused') return response.writeHead(request.method === 'HEAD' ? 405 : 200).end();
    if (path === '/to-private') return response.writeHead(302, { location: `http://127.0.0.1:${port()}/ok` }).end();
    if (path === '/to-ok') return response.writeHead(301, { location: '/ok' }).end();
    if (path === '/loop') return response.writeHead(302, { location: '/loop' }).end();
    if (path.startsWith('/slow')) return void setTimeout(() => response.writeHead(200).end(), 400);
    if (path === '/huge') {
      // A page that never ends (HEAD refused, so the check GETs it): the check must stop at the headers.
      if (request.method === 'HEAD') return response.writeHead(405).end();
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) hugeBytesSent += chunk.length;
        if (!response.destroyed && hugeBytesSent < 512 * 1024 * 1024) response.once('drain', pump);
      };
      return pump();
    }
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://public.test:${port()}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const port = () => (server.address() as AddressInfo).port;
const dns = new TestDns();
const options: ProbeOptions = {
  dns,
  allowPrivateNetworks: false,
  timeoutMs: 3000,
  resolveHost: async (host) => (host === 'public.test' ? ['127.0.0.1'] : resolveGuardedHost(dns, host, false)),
};

describe('probeUrl', () => {
  it('a page that loads is ok; a 404 is broken with its status', async () => {
    expect(await probeUrl(`${base}/ok`, options)).toMatchObject({ ok: true, status: 200, result: 'HTTP 200' });
    expect(await probeUrl(`${base}/missing`, options)).toMatchObject({ ok: false, status: 404 });
  });

  it('falls back to GET when HEAD is refused', async () => {
    requests.length = 0;
    expect(await probeUrl(`${base}/head-refused`, options)).toMatchObject({ ok: true, status: 200 });
    expect(requests.map((request) => request.method)).toEqual(['HEAD', 'GET']);
  });

  it('follows redirects, each hop through the guard: a redirect to a private address is refused', async () => {
    expect(await probeUrl(`${base}/to-ok`, options)).toMatchObject({ ok: true, result: 'HTTP 200 after 1 redirect' });
    requests.length = 0;
    const refused = await probeUrl(`${base}/to-private`, options);
    expect(refused).toMatchObject({ ok: false, status: null, result: '127.0.0.1 is not a public address' });
    expect(requests.map((request) => request.url)).toEqual(['/to-private']);
    expect(await probeUrl(`${base}/loop`, options)).toMatchObject({ ok: false, result: 'more than 5 redirects' });
  });

  it('a private address or a name that does not resolve is broken, without a request', async () => {
    requests.length = 0;
    expect(await probeUrl(`http://127.0.0.1:${port()}/ok`, options)).toMatchObject({
      ok: false,
      result: '127.0.0.1 is not a public address',
    });
    expect(await probeUrl('http://[::1]/', options)).toMatchObject({ ok: false });
    expect(await probeUrl('https://nowhere.test/', options)).toMatchObject({ ok: false, result: /no such host/ });
    expect(requests).toEqual([]);
  });

  it('a link with credentials is never fetched (they are not sent anywhere)', async () => {
    requests.length = 0;
    const result = await probeUrl(`http://user:secret@public.test:${port()}/ok`, options);
    expect(result).toMatchObject({ ok: false, result: 'carries a user name or password: not fetched' });
    expect(requests).toEqual([]);
  });

  it('a huge page is not read: the answer is its status', async () => {
    expect(await probeUrl(`${base}/huge`, options)).toMatchObject({ ok: true, status: 200 });
    expect(hugeBytesSent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('checkLinksAndImages', () => {
  it('finds anchors and images with their alt text, entities decoded, each link once', () => {
    const html = `<a href="https://a.test/?x=1&amp;y=2">a</a><A HREF='https://a.test/?x=1&amp;y=2'>again</A><img src=https://i.test/p.png alt=""><img src="https://i.test/q.png">`;
    expect(extractLinksAndImages(html)).toEqual({
      links: ['https://a.test/?x=1&y=2'],
      images: [
        { src: 'https://i.test/p.png', alt: '' },
        { src: 'https://i.test/q.png', alt: null },
      ],
    });
  });

  it('a broken link fails, an image without alt or that does not load warns, mailto and ours are skipped', async () => {
    const html = [
      `<a href="${base}/ok">fine</a>`,
      `<a href="${base}/missing">gone</a>`,
      '<a href="mailto:hello@example.com">write</a>',
      '<a href="https://example.invalid/u/sample">unsubscribe</a>',
      `<img src="${base}/ok" alt="logo">`,
      `<img src="${base}/missing" alt="chart">`,
      `<img src="${base}/ok">`,
    ].join('');
    const [links, images] = await checkLinksAndImages(html, {
      ...options,
      ownUrls: ['https://example.invalid/u/sample'],
    });
    expect(links).toMatchObject({ id: 'links', status: 'fail', message: expect.stringContaining('/missing') });
    expect(links.details!.links).toEqual([
      { url: `${base}/ok`, status: 'ok', http_status: 200, result: 'HTTP 200' },
      { url: `${base}/missing`, status: 'broken', http_status: 404, result: 'HTTP 404' },
      { url: 'mailto:hello@example.com', status: 'skipped', http_status: null, result: 'not a web link (mailto)' },
      {
        url: 'https://example.invalid/u/sample',
        status: 'skipped',
        http_status: null,
        result: 'the unsubscribe link: served by this server',
      },
    ]);
    expect(images).toMatchObject({ id: 'images', status: 'warn' });
    expect(images.message).toMatch(/1 image has no alt text/);
    expect(images.message).toMatch(/1 image does not load: .*\/missing \(HTTP 404\)/);
  });

  it(`checks at most ${MAX_URLS_CHECKED} URLs and lists the rest as not checked`, async () => {
    requests.length = 0;
    const html = Array.from({ length: MAX_URLS_CHECKED + 10 }, (_, n) => `<a href="${base}/ok?n=${n}">${n}</a>`).join(
      '',
    );
    const [links] = await checkLinksAndImages(html, { ...options, ownUrls: [] });
    expect(links.status).toBe('pass');
    const results = links.details!.links as { status: string }[];
    expect(results.filter((entry) => entry.status === 'ok')).toHaveLength(MAX_URLS_CHECKED);
    expect(results.filter((entry) => entry.status === 'skipped')).toHaveLength(10);
    expect(new Set(requests.map((request) => request.url)).size).toBe(MAX_URLS_CHECKED);
  });

  it('starts no URL after its time budget: the rest are listed as not checked, and why', async () => {
    requests.length = 0;
    const html = Array.from({ length: 12 }, (_, n) => `<a href="${base}/slow?n=${n}">${n}</a>`).join('');
    const [links] = await checkLinksAndImages(html, { ...options, ownUrls: [], budgetMs: 300 });
    const results = links.details!.links as { status: string; result: string }[];
    // Four start at once (the concurrency), each takes 400 ms, so no second round begins.
    expect(results.filter((entry) => entry.status === 'ok')).toHaveLength(4);
    const notChecked = results.filter((entry) => entry.status === 'skipped');
    expect(notChecked).toHaveLength(8);
    expect(notChecked[0].result).toBe('not checked: the check ran out of its 0.3 s');
    expect(requests.filter((request) => request.url.startsWith('/slow'))).toHaveLength(4);
  });
});
