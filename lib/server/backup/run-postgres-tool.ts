import { spawn } from 'node:child_process';
import { conflict } from '@/lib/shared/errors';

/** libpq's own variables for the URL's query parameters that pg_dump and pg_restore understand. */
const QUERY_VARIABLES: Record<string, string> = {
  host: 'PGHOST',
  port: 'PGPORT',
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  application_name: 'PGAPPNAME',
};

/**
 * DATABASE_URL as libpq environment variables: the password never appears on a command line (where
 * `ps` shows it to every user), and node-postgres' own parameters (ssl=true) still mean TLS.
 */
export function postgresToolEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) env.PGDATABASE = database;
  for (const [name, value] of url.searchParams) {
    if (QUERY_VARIABLES[name]) env[QUERY_VARIABLES[name]] = value;
    if (name === 'ssl' && (value === 'true' || value === '1')) env.PGSSLMODE ??= 'require';
  }
  return env;
}

/**
 * Runs pg_dump or pg_restore from PATH with arguments as an array (no shell sees a file name) and
 * the connection in its environment; only what the tool needs of ours is passed on (not MAILSTEAD_SECRET).
 */
export function runPostgresTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => /^(PATH|HOME|LANG|LC_\w+|TZ|PG\w+)$/.test(name) && name !== 'PGPASSWORD',
    ),
  );
  const env = { ...inherited, ...postgresToolEnvironment(databaseUrl) } as NodeJS.ProcessEnv;
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? conflict(
              `${tool} was not found on PATH: install the PostgreSQL client tools (Debian and Ubuntu: apt-get install postgresql-client, of the server's major version or newer)`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) return resolve();
      reject(
        conflict(`${tool} failed (exit ${code}): ${stderr.trim().split('\n').slice(0, 5).join(' | ') || 'no message'}`),
      );
    });
  });
}
