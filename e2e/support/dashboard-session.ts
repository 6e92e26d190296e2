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
  return sessionHeaders({ baseUrl, dataDir, secret: secretFromEnv }, userId);
}

/** The same for a server of a suite's own: its MAILSTEAD_SECRET, else the master key in its data directory. */
export function serverSession(
  server: { baseUrl: string; dataDir: string; env: Record<string, string | undefined> },
  userId: string,
): Promise<Record<string, string>> {
  return sessionHeaders({ ...server, secret: server.env.MAILSTEAD_SECRET }, userId);
}

async function sessionHeaders(
  server: { baseUrl: string; dataDir: string; secret: string | undefined },
  userId: string,
): Promise<Record<string, string>> {
  const masterKey = server.secret
    ? Buffer.from(server.secret, 'utf8')
    : Buffer.from(readFileSync(path.join(server.dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  const token = await encode({ token: { userId, sessionVersion: 0 }, secret });
  return { cookie: `__Secure-next-auth.session-token=${token}`, origin: new URL(server.baseUrl).origin };
}
