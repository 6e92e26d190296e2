import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkPorts } from '@/lib/server/doctor/check-ports';

/** Real listeners on loopback: a plain TCP server is "another program", an SMTP greeting naming Mailstead is ours. */
const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listen(onConnection: (socket: net.Socket) => void = () => {}): Promise<number> {
  const server = net.createServer(onConnection);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

async function freePort(): Promise<number> {
  const port = await listen();
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return port;
}

const mxOnly = (port: number) => loadConfig({ ROLES: 'mx', MX_PORT: String(port) });

describe('checkPorts', () => {
  it('a port held by another program fails and names the variable to change', async () => {
    const port = await listen((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const [check] = await checkPorts(mxOnly(port));
    expect(check.status).toBe('fail');
    expect(check.message).toBe(`MX_PORT ${port}: another program listens on it`);
    expect(check.fix).toMatch(/set MX_PORT to a free port/);
  });

  it('a port held by a Mailstead (its SMTP greeting) is ok', async () => {
    const port = await listen((socket) => socket.write('220 mx.example.com ESMTP Mailstead ESMTP MX\r\n'));
    const [check] = await checkPorts(mxOnly(port));
    expect(check).toMatchObject({ status: 'ok', message: `MX_PORT ${port}: Mailstead answers on it` });
  });

  it('a free port is ok; roles that are off and ports set to 0 are not checked', async () => {
    const port = await freePort();
    const checks = await checkPorts(
      loadConfig({ ROLES: 'web,smtp', PORT: String(port), SMTP_SUBMISSION_PORT: '0', SMTP_SUBMISSION_TLS_PORT: '0' }),
    );
    expect(checks).toEqual([{ check: 'port', status: 'ok', message: `PORT ${port}: free`, fix: null }]);
  });
});
