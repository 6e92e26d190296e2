import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { selfSignedCertFileOf, type Config } from '../config-settings';
import { result, type CheckResult } from './check-result';

const DAY_MS = 24 * 3600 * 1000;
export const EXPIRY_WARNING_DAYS = 30;

/** The certificate the server presents: expiry, the names it covers, whether a CA signed it. */
export function checkTlsCertificate(config: Config, now = new Date()): CheckResult {
  const name = 'tls_certificate';
  const certFile = config.tls?.certPath ?? selfSignedCertFileOf(config.dataDir);
  if (!config.tls && !existsSync(certFile))
    return result(name, 'skip', 'no TLS_CERT, and no self-signed certificate yet: the server makes one on first start');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(certFile));
  } catch (error) {
    return result(
      name,
      'fail',
      `${certFile} is not a readable PEM certificate (${(error as Error).message})`,
      'point TLS_CERT at the certificate file (PEM)',
    );
  }
  if (config.tls) {
    try {
      if (!cert.checkPrivateKey(createPrivateKey(readFileSync(config.tls.keyPath)))) {
        return result(
          name,
          'fail',
          `TLS_KEY (${config.tls.keyPath}) is not the key of TLS_CERT`,
          'set TLS_KEY to the private key that goes with TLS_CERT',
        );
      }
    } catch (error) {
      return result(
        name,
        'fail',
        `TLS_KEY (${config.tls.keyPath}) cannot be read as a private key (${(error as Error).message})`,
        'set TLS_KEY to the PEM private key of TLS_CERT',
      );
    }
  }
  const isSelfSigned = cert.checkIssued(cert) && cert.verify(cert.publicKey);
  const renew =
    isSelfSigned && !config.tls
      ? "delete the data directory's tls/ folder and restart: a new self-signed certificate is made"
      : 'renew the certificate and restart';
  const validTo = new Date(cert.validTo);
  if (validTo.getTime() <= now.getTime())
    return result(name, 'fail', `the certificate expired on ${validTo.toISOString()}`, renew);
  if (new Date(cert.validFrom).getTime() > now.getTime())
    return result(
      name,
      'fail',
      `the certificate is not valid before ${new Date(cert.validFrom).toISOString()}`,
      "check this machine's clock, or use a certificate valid now",
    );
  // Behind a trusted proxy clients see the proxy's certificate, which names PUBLIC_URL's host.
  const host = config.publicUrl.hostname.replace(/^\[|\]$/g, '');
  const isBehindProxy = config.trustProxy.length > 0 && !config.tls;
  const isCovered =
    isBehindProxy || (isIP(host) ? cert.checkIP(host) !== undefined : cert.checkHost(host) !== undefined);
  if (!isCovered) {
    return result(
      name,
      'fail',
      `the certificate does not name PUBLIC_URL's host ${host} (it names ${cert.subjectAltName ?? cert.subject})`,
      config.tls
        ? `use a certificate for ${host}`
        : 'restart the server: the self-signed certificate is made again for the new PUBLIC_URL',
    );
  }
  const daysLeft = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft < EXPIRY_WARNING_DAYS)
    return result(name, 'warn', `the certificate expires in ${daysLeft} day(s), on ${validTo.toISOString()}`, renew);
  if (isSelfSigned) {
    return result(
      name,
      'warn',
      `self-signed, valid for ${host} until ${validTo.toISOString().slice(0, 10)}: clients must be given ${certFile} (curl --cacert)`,
      "for production, set TLS_CERT and TLS_KEY to a certificate from a CA (e.g. Let's Encrypt)",
    );
  }
  return result(
    name,
    'ok',
    `signed by ${cert.issuer.split('\n').find((line) => line.startsWith('CN=')) ?? 'a CA'}, valid for ${host} until ${validTo.toISOString().slice(0, 10)}`,
  );
}
