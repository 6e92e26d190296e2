import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The websites a preflight's links and images point at, on loopback: /ok and /logo.png answer 200,
 * anything under /missing 404, /to-ok redirects to /ok. It records what it was asked, with any
 * Authorization header, so a test can tell what the check fetched.
 */
export async function startPreflightSite() {
  const requests: { method: string; path: string; authorization: string | null }[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization ?? null });
    if (path.startsWith('/missing')) return response.writeHead(404).end('not here');
    if (path === '/to-ok') return response.writeHead(302, { location: '/ok' }).end();
    if (path === '/logo.png') return response.writeHead(200, { 'content-type': 'image/png' }).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>fine</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const PREFLIGHT_CHECK_IDS = [
  'sender',
  'audience',
  'content',
  'html_size',
  'text_part',
  'unsubscribe_link',
  'links',
  'images',
  'spam_score',
];

/** One check of a preflight answer, by id. */
export const checkOf = (body: any, id: string) => body.checks.find((entry: any) => entry.id === id);
