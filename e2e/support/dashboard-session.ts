import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { SecretBox } from '../../lib/shared/crypto';
import { newId } from '../../lib/shared/ids';
import { sharedServer } from './shared';

/**
 * Headers of a user's dashboard session on the shared server, the cookie minted the way next-auth
 * mints it with the server's own key (the API suites run without a dashboard build, so there is no
 * sign-in page to go through), and the Origin that cookie-authenticated writes need. The cookie
 * names a real session row (`sid`), as a sign-in's does: a cookie without one is refused.
 */
export async function dashboardSession(userId: string): Promise<Record<string, string>> {
  const { baseUrl, dataDir } = sharedServer();
  const databaseUrl = process.env.MAILSTEAD_TEST_DATABASE_URL;
  const secretFromEnv = databaseUrl ? process.env.MAILSTEAD_TEST_SECRET : undefined;
  return sessionHeaders({ baseUrl, dataDir, secret: secretFromEnv, databaseUrl }, userId);
}

/** The same for a server of a suite's own: its MAILSTEAD_SECRET, else the master key in its data directory. */
export function serverSession(
  server: { baseUrl: string; dataDir: string; env: Record<string, string | undefined> },
  userId: string,
): Promise<Record<string, string>> {
  return sessionHeaders(
    { ...server, secret: server.env.MAILSTEAD_SECRET, databaseUrl: server.env.DATABASE_URL },
    userId,
  );
}

type SessionServer = { baseUrl: string; dataDir: string; secret: string | undefined; databaseUrl?: string };

/** Just the cookie (`name=value`) of a new session of the user on that server. */
export async function sessionCookieOf(server: SessionServer, userId: string): Promise<string> {
  const masterKey = server.secret
    ? Buffer.from(server.secret, 'utf8')
    : Buffer.from(readFileSync(path.join(server.dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  const sid = await startSessionRow(server, userId);
  const token = await encode({ token: { userId, sessionVersion: 0, sid }, secret });
  return `__Secure-next-auth.session-token=${token}`;
}

async function sessionHeaders(server: SessionServer, userId: string): Promise<Record<string, string>> {
  return { cookie: await sessionCookieOf(server, userId), origin: new URL(server.baseUrl).origin };
}

/**
 * The session row a sign-in would make: written into PostgreSQL directly, or, on PGlite (the
 * server holds the database), by the server over its control socket, as the operator's CLI does.
 */
async function startSessionRow(server: SessionServer, userId: string): Promise<string> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const id = newId();
      await client.query(
        "INSERT INTO user_sessions (id, user_id, user_agent, created_at, last_seen_at) VALUES ($1, $2, 'e2e session', now(), now())",
        [id, userId],
      );
      return id;
    } finally {
      await client.end();
    }
  }
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.createConnection(path.join(server.dataDir, 'mailstead.sock'));
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () =>
      socket.write(JSON.stringify({ command: 'users.start-session', args: { user_id: userId } }) + '\n'),
    );
    socket.on('data', (data: string) => (buffer += data));
    socket.on('end', () => resolve(buffer));
    socket.on('error', reject);
  });
  const response = JSON.parse(answer) as { ok: boolean; result?: { session_id: string }; message?: string };
  if (!response.ok || !response.result) throw new Error(`no session for ${userId}: ${response.message}`);
  return response.result.session_id;
}
