import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export type ReceivedHook = { path: string; headers: http.IncomingHttpHeaders; body: string; json: any; at: number };
type Answer = { status: number; body: string; delayMs?: number };
export type ReceiverTls = { cert: string; key: string; hostname: string };

/**
 * A customer's webhook endpoint on loopback: records every request and answers each path with what
 * the test scripted, 200 "ok" by default. Plain HTTP by default (the server accepts it only with
 * ALLOW_PRIVATE_NETWORKS); with `tls` it is an HTTPS endpoint named `tls.hostname`, whose
 * certificate the server under test must trust (NODE_EXTRA_CA_CERTS) and whose name the run's DNS
 * server must resolve to 127.0.0.1.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private server!: http.Server | https.Server;
  port = 0;

  constructor(private readonly options: { tls?: ReceiverTls } = {}) {}

  /** A self-signed certificate for `hostname` (and 127.0.0.1), to serve and to trust. */
  static async certificate(hostname: string): Promise<ReceiverTls> {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: hostname }], {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 7 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        {
          name: 'subjectAltName',
          altNames: [hostname, '127.0.0.1'].map((host) =>
            isIP(host) ? { type: 7, ip: host } : { type: 2, value: host },
          ),
        },
      ],
    });
    return { cert: pems.cert, key: pems.private, hostname };
  }

  async start(): Promise<this> {
    const handler: http.RequestListener = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: any = null;
        try {
          json = JSON.parse(body);
        } catch {
          // not JSON: kept as text
        }
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body, json, at: Date.now() });
        const queue = this.answers.get(path);
        const answer = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? { status: 200, body: 'ok' };
        const reply = () => {
          if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    };
    const tls = this.options.tls;
    this.server = tls ? https.createServer({ cert: tls.cert, key: tls.key }, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string): string {
    const tls = this.options.tls;
    return tls ? `https://${tls.hostname}:${this.port}${path}` : `http://127.0.0.1:${this.port}${path}`;
  }

  /** The answers for a path, in order; the last one repeats. */
  answer(path: string, ...answers: Answer[]): void {
    this.answers.set(path, answers);
  }

  to(path: string): ReceivedHook[] {
    return this.received.filter((hook) => hook.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Standard Webhooks signature check with the whole secret string as the HMAC key (the AhaSend rule). */
export function hasValidSignature(hook: ReceivedHook, secret: string): boolean {
  const signed = `${hook.headers['webhook-id']}.${hook.headers['webhook-timestamp']}.${hook.body}`;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(signed).digest();
  return String(hook.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((candidate) => {
      const [version, value] = candidate.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
