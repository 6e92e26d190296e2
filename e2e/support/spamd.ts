import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkWithSpamd } from '../../lib/core/preflight/spamd-client';
import { freePort } from './server';

export type SpamdHandle = { url: string; host: string; port: number; stop: () => Promise<void> };

const CANDIDATES = ['/usr/sbin/spamd', '/usr/bin/spamd'];
export const spamdBinary = () => CANDIDATES.find((file) => existsSync(file)) ?? null;

/** The GTUBE line: SpamAssassin scores any message that carries it 1000. */
export const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

/** spamd answers PING with PONG once its children are up. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => socket.end('PING SPAMC/1.5\r\n\r\n'));
    socket.on('data', (chunk) => (answer += chunk));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(/PONG/.test(answer)));
  });
}

/**
 * SpamAssassin's spamd from Debian's spamassassin package on a free loopback port, with the rules
 * the package ships (sa-update needs the network), network tests off (-L: no DNSBL lookups) and
 * no per-user settings (-x); as root it drops to nobody. Null when spamd is not installed.
 */
export async function startSpamd(): Promise<SpamdHandle | null> {
  const binary = spamdBinary();
  if (!binary) return null;
  const port = await freePort();
  const pidFile = path.join(os.tmpdir(), `ms-spamd-${process.pid}-${port}.pid`);
  const args = [
    `--listen=127.0.0.1:${port}`,
    '--max-children=1',
    '--min-children=1',
    '-L',
    '-x',
    '-s',
    'stderr',
    `--pidfile=${pidFile}`,
    ...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []),
  ];
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Loading the rules takes a few seconds, longer on a busy machine.
  for (let waited = 0; !(await ping(port)); waited += 250) {
    if (child.exitCode !== null || waited > 90_000) {
      child.kill('SIGKILL');
      throw new Error(`spamd did not start on port ${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // One scan before the tests: the first one compiles what PING did not need, slowly on a busy machine.
  await checkWithSpamd(
    { host: '127.0.0.1', port },
    Buffer.from('From: a@example.com\r\nTo: b@example.com\r\nSubject: warm-up\r\n\r\nHello.\r\n'),
    90_000,
  ).catch(() => undefined);
  return {
    url: `spamd://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      spawnSync('rm', ['-f', pidFile]);
    },
  };
}
