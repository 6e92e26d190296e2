import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkTlsCertificate } from '@/lib/server/doctor/check-tls-certificate';

/** Real certificates made with `selfsigned`, as tls.ts makes the default one. */
const dir = mkdtempSync(path.join(tmpdir(), 'doctor-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 24 * 3600 * 1000;
let counter = 0;

async function certificate(options: { host: string; from: Date; to: Date }) {
  const pems = await generate([{ name: 'commonName', value: options.host }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: options.from,
    notAfterDate: options.to,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: options.host }] }],
  } as never);
  const certPath = path.join(dir, `cert-${counter}.pem`);
  const keyPath = path.join(dir, `key-${counter++}.pem`);
  writeFileSync(certPath, pems.cert);
  writeFileSync(keyPath, pems.private);
  return { certPath, keyPath };
}

const configFor = (files: { certPath: string; keyPath: string }, publicUrl = 'https://mail.example.com') =>
  loadConfig({ DATA_DIR: dir, TLS_CERT: files.certPath, TLS_KEY: files.keyPath, PUBLIC_URL: publicUrl });

describe('checkTlsCertificate', () => {
  const now = new Date();

  it('an expired certificate fails and says to renew it', async () => {
    const files = await certificate({
      host: 'mail.example.com',
      from: new Date(now.getTime() - 400 * DAY),
      to: new Date(now.getTime() - DAY),
    });
    const check = checkTlsCertificate(configFor(files), now);
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(/expired on/);
    expect(check.fix).toMatch(/renew/);
  });

  it('a certificate expiring within 30 days is a warning naming the days left', async () => {
    const files = await certificate({
      host: 'mail.example.com',
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 10 * DAY + 3600_000),
    });
    const check = checkTlsCertificate(configFor(files), now);
    expect(check.status).toBe('warn');
    expect(check.message).toMatch(/expires in 10 day/);
  });

  it("a certificate that does not name PUBLIC_URL's host fails, naming both", async () => {
    const files = await certificate({
      host: 'other.example.com',
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 90 * DAY),
    });
    const check = checkTlsCertificate(configFor(files), now);
    expect(check.status).toBe('fail');
    expect(check.message).toContain('mail.example.com');
    expect(check.message).toContain('other.example.com');
  });

  it('a self-signed certificate for the right host is a warning that clients need --cacert', async () => {
    const files = await certificate({
      host: 'mail.example.com',
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 90 * DAY),
    });
    const check = checkTlsCertificate(configFor(files), now);
    expect(check.status).toBe('warn');
    expect(check.message).toMatch(/self-signed/);
    expect(check.fix).toMatch(/TLS_CERT and TLS_KEY/);
  });

  it("TLS_KEY that is not the certificate's key fails", async () => {
    const one = await certificate({
      host: 'mail.example.com',
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 90 * DAY),
    });
    const two = await certificate({
      host: 'mail.example.com',
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 90 * DAY),
    });
    const check = checkTlsCertificate(configFor({ certPath: one.certPath, keyPath: two.keyPath }), now);
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(/not the key of TLS_CERT/);
  });

  it('a file that is no certificate fails instead of throwing', () => {
    const certPath = path.join(dir, 'garbage.pem');
    writeFileSync(certPath, 'not a certificate');
    expect(checkTlsCertificate(configFor({ certPath, keyPath: certPath }), now).status).toBe('fail');
  });

  it('no certificate yet on a fresh data directory is skipped, not failed', () => {
    const check = checkTlsCertificate(loadConfig({ DATA_DIR: path.join(dir, 'fresh') }), now);
    expect(check.status).toBe('skip');
  });
});
