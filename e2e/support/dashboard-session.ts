import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { SecretBox } from '../../lib/shared/crypto';
import { sharedServer } from './shared';

/**
 * Headers of a user's dashboard session on the shared server, the cookie minted the way next-auth
 * mints it with the server's own key (the API suites run without a dashboard build, so there is no
 * sign-in page to go through), and the Origin that cookie-authenticated writes need.
 */
export async function dashboardSession(userId: string): Promise<Record<string, string>> {
  const { baseUrl, dataDir } = sharedServer();
  const secretFromEnv = process.env.MAILSTEAD_TEST_DATABASE_URL ? process.env.MAILSTEAD_TEST_SECRET : undefined;
  const masterKey = secretFromEnv
    ? Buffer.from(secretFromEnv, 'utf8')
    : Buffer.from(readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  const token = await encode({ token: { userId, sessionVersion: 0 }, secret });
  return { cookie: `__Secure-next-auth.session-token=${token}`, origin: new URL(baseUrl).origin };
}
