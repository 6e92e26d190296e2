import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { SecretBox } from '../../lib/shared/crypto';

/**
 * Headers of an owner's dashboard session, minted the way next-auth mints it with the server's own
 * key (API suites run without a dashboard build, so there is no sign-in page to go through).
 * `secret`: the server's MAILSTEAD_SECRET when it has one (PostgreSQL runs); else its master.key.
 */
export async function dashboardSessionHeaders(server: { baseUrl: string; dataDir: string; secret?: string }, ownerId: string): Promise<Record<string, string>> {
  const masterKey = server.secret ? Buffer.from(server.secret, 'utf8') : Buffer.from(readFileSync(path.join(server.dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  const token = await encode({ token: { userId: ownerId, sessionVersion: 0 }, secret });
  return { cookie: `__Secure-next-auth.session-token=${token}`, origin: new URL(server.baseUrl).origin };
}

/** The shared server's secret, as global setup chose it (PostgreSQL runs only). */
export const sharedServerSecret = () => (process.env.MAILSTEAD_TEST_DATABASE_URL ? process.env.MAILSTEAD_TEST_SECRET : undefined);
