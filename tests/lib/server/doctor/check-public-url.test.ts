import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkPublicUrl } from '@/lib/server/doctor/check-public-url';

/** A real HTTPS server on loopback with a self-signed certificate kept where the server keeps its own. */
const dataDir = mkdtempSync(path.join(tmpdir(), 'doctor-url-'));
let server: https.Server;
let port: number;
let body = '{"status":"ok"}';

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  mkdirSync(path.join(dataDir, 'tls'));
  writeFileSync(path.join(dataDir, 'tls', 'cert.pem'), pems.cert);
  server = https.createServer({ cert: pems.cert, key: pems.private }, (_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const configFor = (url: string) => loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: url });

describe('checkPublicUrl', () => {
  it('our health answer over HTTPS, trusting our own self-signed certificate, is ok', async () => {
    expect(await checkPublicUrl(configFor(`https://127.0.0.1:${port}`), true)).toMatchObject({ status: 'ok' });
  });

  it('another server at PUBLIC_URL fails', async () => {
    body = '<html>welcome to nginx</html>';
    try {
      const check = await checkPublicUrl(configFor(`https://127.0.0.1:${port}`), true);
      expect(check.status).toBe('fail');
      expect(check.fix).toMatch(/PUBLIC_URL reaches another server/);
    } finally {
      body = '{"status":"ok"}';
    }
  });

  it('nothing listening at PUBLIC_URL fails, naming the refusal', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const check = await checkPublicUrl(configFor(`https://127.0.0.1:${closed}`), true);
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(/ECONNREFUSED/);
  });

  it('a certificate that is not ours fails with the certificate named as the cause', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'doctor-url-other-'));
    try {
      const check = await checkPublicUrl(
        loadConfig({ DATA_DIR: other, PUBLIC_URL: `https://127.0.0.1:${port}` }),
        true,
      );
      expect(check.status).toBe('fail');
      expect(check.fix).toMatch(/certificate/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('is skipped when the server is not running', async () => {
    expect((await checkPublicUrl(configFor(`https://127.0.0.1:${port}`), false)).status).toBe('skip');
  });
});
