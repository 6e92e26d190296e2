import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import { resolveGuardedHost } from '@/lib/core/shared/guarded-lookup';

export type ProbeResult = { ok: boolean; status: number | null; result: string };
export type ProbeOptions = {
  dns: DnsLookup;
  allowPrivateNetworks: boolean;
  /** Per request (HEAD, GET, each redirect hop). */
  timeoutMs: number;
  /** Tests hand in their own resolver; otherwise the webhooks' guard (guarded-lookup.ts). */
  resolveHost?: (hostname: string) => Promise<string[]>;
};

const MAX_REDIRECTS = 5;
const USER_AGENT = 'Mailstead-Preflight/1 (link check)';

/**
 * Whether a link of a message loads, as a reader's click would: HEAD, then GET when HEAD is
 * refused (405, 501 and other errors: many servers answer HEAD badly), each hop of a redirect
 * through the SSRF guard. Only the status is read, never the body: the socket closes at the headers.
 */
export async function probeUrl(rawUrl: string, options: ProbeOptions): Promise<ProbeResult> {
  const head = await follow(rawUrl, 'HEAD', options);
  if (head.ok || head.status === null) return head;
  return follow(rawUrl, 'GET', options);
}

async function follow(rawUrl: string, method: 'HEAD' | 'GET', options: ProbeOptions): Promise<ProbeResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, status: null, result: 'not a valid URL' };
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { ok: false, status: null, result: `redirected to a ${url.protocol} URL` };
    if (url.username || url.password)
      return { ok: false, status: null, result: 'carries a user name or password: not fetched' };
    const answer = await request(url, method, options);
    if ('error' in answer) return { ok: false, status: null, result: answer.error };
    const { status, location } = answer;
    if (status >= 300 && status < 400 && location) {
      if (hop >= MAX_REDIRECTS) return { ok: false, status, result: `more than ${MAX_REDIRECTS} redirects` };
      try {
        url = new URL(location, url);
      } catch {
        return { ok: false, status, result: `redirected to an invalid URL` };
      }
      continue;
    }
    const ok = status < 400;
    return { ok, status, result: `HTTP ${status}${hop ? ` after ${hop} redirect${hop > 1 ? 's' : ''}` : ''}` };
  }
}

async function request(
  url: URL,
  method: 'HEAD' | 'GET',
  options: ProbeOptions,
): Promise<{ status: number; location: string | null } | { error: string }> {
  const resolveHost =
    options.resolveHost ?? ((host: string) => resolveGuardedHost(options.dns, host, options.allowPrivateNetworks));
  // The guard decides every connection: a name resolved here is connected to by address.
  let address: string;
  try {
    [address] = await resolveHost(url.hostname);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let isDone = false;
    const finish = (value: { status: number; location: string | null } | { error: string }) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      req.destroy();
      resolve(value);
    };
    const req = client.request(
      url,
      {
        method,
        agent: false,
        headers: { 'user-agent': USER_AGENT, accept: '*/*' },
        // Connect to the address the guard allowed; TLS still checks the certificate for the name.
        lookup: (_hostname, lookupOptions, callback) =>
          lookupOptions.all
            ? callback(null, [{ address, family: isIP(address) }])
            : callback(null, address, isIP(address)),
        servername: isIP(url.hostname) ? undefined : url.hostname,
      },
      (response) => {
        const location = response.headers.location ?? null;
        finish({ status: response.statusCode ?? 0, location });
      },
    );
    const timer = setTimeout(
      () => finish({ error: `timed out after ${options.timeoutMs / 1000} s` }),
      options.timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: describe(error) }));
    req.end();
  });
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'no such host';
    case 'CERT_HAS_EXPIRED':
      return 'TLS certificate expired';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
