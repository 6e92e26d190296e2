import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { generate } from 'selfsigned';
import { selfSignedCertFileOf, type Config } from './config-settings';

export type TlsMaterial = { cert: string; key: string; isSelfSigned: boolean };

/** TLS_CERT/TLS_KEY when given; otherwise a self-signed certificate kept in the data directory. */
export async function loadTlsMaterial(config: Config): Promise<TlsMaterial> {
  if (config.tls) {
    return {
      cert: readFileSync(config.tls.certPath, 'utf8'),
      key: readFileSync(config.tls.keyPath, 'utf8'),
      isSelfSigned: false,
    };
  }
  const certFile = selfSignedCertFileOf(config.dataDir);
  const dir = path.dirname(certFile);
  const keyFile = path.join(dir, 'key.pem');
  const hostsFile = path.join(dir, 'hosts.json');
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', config.publicUrl.hostname.replace(/^\[|\]$/g, '')])];
  // A certificate made for other hosts (PUBLIC_URL changed) is made again.
  if (
    existsSync(certFile) &&
    existsSync(keyFile) &&
    existsSync(hostsFile) &&
    readFileSync(hostsFile, 'utf8') === JSON.stringify(hosts)
  ) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), isSelfSigned: true };
  }
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: hosts[3] ?? 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 825 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })),
      },
    ],
  } as never);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert, { mode: 0o600 });
  writeFileSync(hostsFile, JSON.stringify(hosts), { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, isSelfSigned: true };
}
