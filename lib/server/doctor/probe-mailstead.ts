import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

const PROBE_TIMEOUT_MS = 3000;

const MAX_BODY_CHARACTERS = 1000;

export type HealthAnswer = { status: number; body: string } | { error: string };

/** GET a /healthz over HTTPS with these TLS options: its status and the first 1,000 characters of its body, or why it failed. */
export function getHealth(
  url: URL | string,
  options: https.RequestOptions & { timeout: number },
): Promise<HealthAnswer> {
  return new Promise((resolve) => {
    const request = https.get(url, options, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < MAX_BODY_CHARACTERS) body += chunk.slice(0, MAX_BODY_CHARACTERS - body.length);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeout / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ? `${error.code}: ${error.message}` : error.message }),
    );
  });
}

/** Mailstead's own health answer: 200 with {"status":"ok"}. */
export const isHealthy = (answer: HealthAnswer): boolean =>
  !('error' in answer) && answer.status === 200 && /"status":"ok"/.test(answer.body);

/**
 * Whether the program on a loopback port is Mailstead: its HTTPS /healthz answers {"status":"ok"},
 * its SMTP greeting names Mailstead. Identity only: nothing is sent, so no certificate is checked.
 */
export async function isMailsteadHttps(port: number): Promise<boolean> {
  return isHealthy(
    await getHealth(`https://127.0.0.1:${port}/healthz`, { rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS }),
  );
}

export function isMailsteadSmtp(port: number, options: { isImplicitTls: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = options.isImplicitTls
      ? tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false })
      : net.connect({ host: '127.0.0.1', port });
    let greeting = '';
    const done = (isOurs: boolean) => {
      socket.destroy();
      resolve(isOurs);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      greeting += chunk;
      if (greeting.includes('\n')) done(/^220 .*Mailstead/.test(greeting));
    });
    socket.on('error', () => done(false));
    socket.on('end', () => done(false));
  });
}
