import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from 'pino';
import { normalizeIp } from '@/lib/shared/ip';

export type ClientConnectionLimits = {
  /** Connections one client (an IPv4 address, an IPv6 /64) may hold at once. */
  connectionsPerClient: number;
  /** How long a client may take from connecting to its first command line. */
  greetingTimeoutMs: number;
};

/** What a listener asks before it starts an SMTP session on a socket. */
export type ClientConnectionGuard = { admit: (socket: Socket) => boolean };

/** The unit a cap counts: the address, or its /64 for IPv6, which one host usually holds whole. */
export function clientKey(remoteAddress: string | undefined): string {
  const normalized = normalizeIp(remoteAddress);
  if (!normalized) return 'unknown';
  const address = ipaddr.parse(normalized);
  if (address.kind() === 'ipv4') return normalized;
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/**
 * Per-client limits of an SMTP listener, checked on the raw socket before any session exists: a
 * client over its cap gets `421 4.7.0` at once and never takes one of the listener's slots; a
 * client that sends no command line within the greeting timeout gets `421 4.4.2` and is closed.
 */
export function createClientConnectionGuard(
  limits: ClientConnectionLimits,
  hostname: string,
  logger: Logger,
): ClientConnectionGuard {
  const open = new Map<string, number>();
  // Clients at their cap: the first refusal is logged, not every one of a flood.
  const capped = new Set<string>();

  const refuse = (socket: Socket, reply: string) => {
    socket.end(`${reply}\r\n`);
    // A client that never closes its side must not keep the descriptor.
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const admit = (socket: Socket): boolean => {
    const key = clientKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= limits.connectionsPerClient) {
      if (!capped.has(key))
        logger.warn({ client: key, connections: count }, 'mx connections refused: too many from this client');
      capped.add(key);
      // smtp-server never sees this socket: nothing else listens for its errors (a reset, say).
      socket.on('error', () => socket.destroy());
      refuse(socket, `421 4.7.0 ${hostname} too many connections from your address, try again later`);
      return false;
    }
    open.set(key, count + 1);
    const waitForCommand = setTimeout(() => {
      logger.info({ client: key }, 'mx connection closed: no command before the greeting timeout');
      refuse(socket, `421 4.4.2 ${hostname} no command received in time, closing connection`);
    }, limits.greetingTimeoutMs);
    waitForCommand.unref();
    const onData = (chunk: Buffer) => {
      if (!chunk.includes(0x0a)) return;
      clearTimeout(waitForCommand);
      socket.off('data', onData);
    };
    socket.on('data', onData);
    socket.once('close', () => {
      clearTimeout(waitForCommand);
      const left = (open.get(key) ?? 1) - 1;
      capped.delete(key);
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
    return true;
  };

  return { admit };
}
