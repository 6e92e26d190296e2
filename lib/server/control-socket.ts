import { chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { AppError } from '@/lib/shared/errors';
import { controlSocketPath } from './data-dir-lock';
import { OPERATOR_COMMANDS, isOperatorCommand } from './operator-commands';
import type { Registry } from './registry';

export type ControlRequest = { command: string; args: Record<string, unknown> };
export type ControlResponse = { ok: true; result: unknown } | { ok: false; kind: string; message: string };

/**
 * A Unix socket in the data directory (mode 0600: only the server's own user) through which the CLI
 * runs operator commands against the server's open embedded database. One JSON line each way.
 */
export async function startControlSocket(registry: Registry): Promise<{ close: () => Promise<void> }> {
  const file = controlSocketPath(registry.config.dataDir);
  try {
    unlinkSync(file);
  } catch {
    // no stale socket
  }
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (data: string) => {
      buffer += data;
      if (buffer.length > 1_000_000) return socket.destroy();
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      const line = buffer.slice(0, newline);
      buffer = '';
      void answer(line).then((response) => socket.end(JSON.stringify(response) + '\n'));
    });
  });

  async function answer(line: string): Promise<ControlResponse> {
    try {
      const request = JSON.parse(line) as ControlRequest;
      if (!isOperatorCommand(request.command))
        return { ok: false, kind: 'usage', message: `unknown command ${request.command}` };
      return { ok: true, result: await OPERATOR_COMMANDS[request.command](registry, request.args ?? {}) };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, kind: error.kind, message: error.message };
      registry.logger.error({ err: error }, 'control command failed');
      return { ok: false, kind: 'internal', message: 'internal error' };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      }),
  };
}

/** The CLI side: send one command to the running server. */
export function sendControlCommand(dataDir: string, request: ControlRequest): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(controlSocketPath(dataDir));
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(request) + '\n'));
    socket.on('data', (data: string) => (buffer += data));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(buffer) as ControlResponse);
      } catch {
        reject(new Error('the running server sent no answer'));
      }
    });
    socket.on('error', reject);
  });
}
