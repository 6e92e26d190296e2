import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import { guardedLookup, LookupError, resolveGuardedHost } from '@/lib/core/shared/guarded-lookup';

export type AttemptResult = {
  isSuccess: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  body: string | null;
};

/** What the log keeps of a receiver's answer; more than this is not even read. */
export const RESPONSE_BODY_LOG_BYTES = 1024;
const RESPONSE_BODY_READ_BYTES = 64 * 1024;

export type WebhookClient = {
  send: (request: { url: string; headers: Record<string, string>; body: string }) => Promise<AttemptResult>;
  close: () => void;
};

/**
 * The HTTP side of a webhook attempt, with Node's own client rather than fetch: the `lookup` of every
 * new connection refuses non-public addresses (guarded-lookup.ts), redirects are never followed (a 3xx
 * is a failed attempt), and one deadline covers connecting, the answer and its body. Any 2xx succeeds.
 * Connections are kept alive per receiver. `caPem` (WEBHOOK_CA_FILE) is trusted besides the public roots.
 */
export function createWebhookClient(options: {
  dns: DnsLookup;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  maxSockets: number;
  caPem?: string | null;
}): WebhookClient {
  const lookup = guardedLookup(options.dns, options.allowPrivateNetworks);
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, lookup };
  const agents = {
    'https:': new https.Agent({
      ...agentOptions,
      ...(options.caPem ? { ca: [...rootCertificates, options.caPem] } : {}),
    }),
    'http:': new http.Agent(agentOptions),
  };

  const send: WebhookClient['send'] = async ({ url: rawUrl, headers, body }) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(rawUrl);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivateNetworks)) {
      return {
        isSuccess: false,
        status: null,
        latencyMs: 0,
        error: `${url.protocol} URLs are not called (https only)`,
        body: null,
      };
    }
    // Sockets skip `lookup` for IP literals, so those are checked here.
    try {
      if (isIP(url.hostname.replace(/^\[|\]$/g, '')))
        await resolveGuardedHost(options.dns, url.hostname, options.allowPrivateNetworks);
    } catch (error) {
      return { isSuccess: false, status: null, latencyMs: elapsed(), error: describeError(error, url), body: null };
    }
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<AttemptResult>((resolve) => {
      let isDone = false;
      const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
        if (isDone) return;
        isDone = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: agents[url.protocol as 'https:' | 'http:'],
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LOG_BYTES).toString('utf8');
            const isSuccess = status >= 200 && status < 300;
            const error = isSuccess
              ? null
              : status >= 300 && status < 400
                ? `redirect not followed (${status}${response.headers.location ? ` to ${response.headers.location}` : ''})`
                : `HTTP ${status} from the endpoint`;
            finish({ isSuccess, status, error, body: text === '' ? null : text });
          };
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_BODY_READ_BYTES) {
              done();
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', (error) =>
            finish({ isSuccess: false, status, error: describeError(error, url), body: null }),
          );
        },
      );
      const timer = setTimeout(() => {
        finish({ isSuccess: false, status: null, error: `timed out after ${options.timeoutMs / 1000} s`, body: null });
        request.destroy();
      }, options.timeoutMs);
      // A reset before the handshake ends is a TLS failure (a plain-HTTP port, a proxy that refuses the name).
      let isSecured = url.protocol !== 'https:';
      request.on('socket', (socket) => {
        if (request.reusedSocket) isSecured = true;
        else socket.once('secureConnect', () => (isSecured = true));
      });
      request.on('error', (error) =>
        finish({ isSuccess: false, status: null, error: describeError(error, url, isSecured), body: null }),
      );
      request.end(body);
    });
  };

  return {
    send,
    close() {
      agents['https:'].destroy();
      agents['http:'].destroy();
    },
  };
}

const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate issued by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate issued by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate issued by an unknown authority',
  CERT_REVOKED: 'certificate has been revoked',
};

/** What failed, as a person fixing the endpoint needs it: the layer (DNS, TCP, TLS, HTTP) and the reason. */
export function describeError(error: unknown, url: URL, isSecured = true): string {
  if (error instanceof LookupError) return error.message;
  const { code = '', message } = error as NodeJS.ErrnoException;
  if (TLS_REASONS[code]) return `TLS: ${TLS_REASONS[code]}`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `TLS: the certificate is not valid for ${url.hostname}`;
  if (!isSecured && (code === 'ECONNRESET' || code === 'EPIPE'))
    return 'TLS: the endpoint closed the connection during the handshake';
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO' || /certificate|TLS|SSL/i.test(message))
    return `TLS: ${message}`;
  if (code === 'ENOTFOUND') return `DNS: no such host (${url.hostname})`;
  if (code === 'EAI_AGAIN') return `DNS: ${url.hostname} could not be resolved right now`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset by the endpoint';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
