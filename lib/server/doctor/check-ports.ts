import net from 'node:net';
import type { Config } from '../config-settings';
import { result, type CheckResult } from './check-result';
import { isMailsteadHttps, isMailsteadSmtp } from './probe-mailstead';

type Listener = { variable: string; port: number; kind: 'https' | 'smtp' | 'smtps' };

/** The ports this configuration listens on, by role (0 turns a listener off). */
export function listenersOf(config: Config): Listener[] {
  const listeners: Listener[] = [];
  if (config.roles.includes('web')) listeners.push({ variable: 'PORT', port: config.port, kind: 'https' });
  if (config.roles.includes('smtp')) {
    listeners.push({ variable: 'SMTP_SUBMISSION_PORT', port: config.smtpSubmissionPort, kind: 'smtp' });
    listeners.push({ variable: 'SMTP_SUBMISSION_TLS_PORT', port: config.smtpSubmissionTlsPort, kind: 'smtps' });
  }
  if (config.roles.includes('mx')) listeners.push({ variable: 'MX_PORT', port: config.mxPort, kind: 'smtp' });
  return listeners.filter((listener) => listener.port !== 0);
}

/** Each port is free, or held by a Mailstead that answers on it; anything else there is a failure. */
export async function checkPorts(config: Config): Promise<CheckResult[]> {
  return Promise.all(listenersOf(config).map(checkPort));
}

async function checkPort(listener: Listener): Promise<CheckResult> {
  const label = `${listener.variable} ${listener.port}`;
  const bound = await tryListen(listener.port);
  if (bound === 'free') return result('port', 'ok', `${label}: free`);
  if (bound === 'EACCES') {
    return result(
      'port',
      'fail',
      `${label}: this user may not listen on it`,
      `use a port above 1023 (a firewall or proxy can forward ${listener.port}), or grant node CAP_NET_BIND_SERVICE`,
    );
  }
  if (bound !== 'EADDRINUSE')
    return result(
      'port',
      'fail',
      `${label}: cannot listen on it (${bound})`,
      `set ${listener.variable} to another port`,
    );
  const isOurs =
    listener.kind === 'https'
      ? await isMailsteadHttps(listener.port)
      : await isMailsteadSmtp(listener.port, { isImplicitTls: listener.kind === 'smtps' });
  if (isOurs) return result('port', 'ok', `${label}: Mailstead answers on it`);
  return result(
    'port',
    'fail',
    `${label}: another program listens on it`,
    `stop that program (see \`ss -ltnp 'sport = ${listener.port}'\`), or set ${listener.variable} to a free port`,
  );
}

/** Listens as the server does (every interface) and lets go at once. */
function tryListen(port: number): Promise<string> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, () => server.close(() => resolve('free')));
  });
}
