import type { Config } from '../config-settings';
import { result, type CheckResult } from './check-result';

const TIMEOUT_MS = 5000;

/**
 * The OpenID provider's discovery document, fetched from this machine as the server will at every
 * sign-in: it must answer, name OIDC_ISSUER as its issuer (ID tokens are checked against it), and
 * offer the authorization code flow and the endpoints next-auth uses.
 */
export async function checkSingleSignOn(config: Config): Promise<CheckResult> {
  const settings = config.singleSignOn;
  if (!settings) return result('single_sign_on', 'skip', 'not configured (OIDC_ISSUER is not set)');
  const issuer = settings.issuer.replace(/\/+$/, '');
  const url = `${issuer}/.well-known/openid-configuration`;
  let document: Record<string, unknown>;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    document = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    return result(
      'single_sign_on',
      'fail',
      `${url} could not be read: ${(error as Error).message}`,
      'set OIDC_ISSUER to the issuer URL your provider shows (its discovery document is that URL + /.well-known/openid-configuration), and check this machine can reach it',
    );
  }
  const named = typeof document.issuer === 'string' ? document.issuer.replace(/\/+$/, '') : null;
  if (named !== issuer)
    return result(
      'single_sign_on',
      'fail',
      `the provider names its issuer ${JSON.stringify(document.issuer)}, not ${settings.issuer}: its ID tokens would be refused`,
      'set OIDC_ISSUER to exactly the issuer of the discovery document',
    );
  const missing = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'].filter(
    (field) => typeof document[field] !== 'string',
  );
  const responseTypes = document.response_types_supported;
  if (Array.isArray(responseTypes) && !responseTypes.includes('code')) missing.push('response type "code"');
  if (missing.length)
    return result(
      'single_sign_on',
      'fail',
      `the provider's discovery document lacks ${missing.join(', ')}`,
      'Mailstead needs an OpenID Connect provider with the authorization code flow',
    );
  return result('single_sign_on', 'ok', `${issuer} publishes its discovery document (client ${settings.clientId})`);
}
