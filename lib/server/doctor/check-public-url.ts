import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { selfSignedCertFileOf, type Config } from '../config-settings';
import { result, type CheckResult } from './check-result';
import { getHealth, isHealthy } from './probe-mailstead';

const TIMEOUT_MS = 5000;

/**
 * GET PUBLIC_URL/healthz from this machine as a client would, trusting the public CAs and our own
 * certificate (self-signed by default): what a browser or an SDK meets first.
 */
export async function checkPublicUrl(config: Config, isServerRunning: boolean): Promise<CheckResult> {
  const url = new URL('/healthz', config.publicUrl);
  if (!isServerRunning)
    return result(
      'public_url',
      'skip',
      `server not running: ${config.publicUrl.origin} was not tried`,
      'start the server and run doctor again',
    );
  const ownCert = config.tls?.certPath ?? selfSignedCertFileOf(config.dataDir);
  const ca = [...rootCertificates, ...(existsSync(ownCert) ? [readFileSync(ownCert, 'utf8')] : [])];
  const answer = await getHealth(url, { ca, timeout: TIMEOUT_MS });
  if ('error' in answer) {
    const fix = /CERT|SELF_SIGNED|altnames|UNABLE_TO/i.test(answer.error)
      ? 'the certificate presented there is not ours or does not name the host: see the tls_certificate line, or the proxy in front'
      : 'make PUBLIC_URL the address clients use, and check that its name resolves to this server and the firewall or proxy lets HTTPS through';
    return result('public_url', 'fail', `${url.href} did not answer: ${answer.error}`, fix);
  }
  if (!isHealthy(answer)) {
    return result(
      'public_url',
      'fail',
      `${url.href} answered ${answer.status}, not Mailstead's health answer`,
      'PUBLIC_URL reaches another server: point it (or the proxy) at this one',
    );
  }
  return result('public_url', 'ok', `${config.publicUrl.origin} answers over HTTPS`);
}
