import net from 'node:net';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';
import { AppError } from '@/lib/shared/errors';

/** Loopback servers of the test: one that refuses (closed port), one that hangs up, one that never answers. */
const servers: net.Server[] = [];
const sockets: net.Socket[] = [];

async function listen(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('isDatabaseUnavailable, with the errors pg and drizzle really throw', () => {
  it('a client connecting to a closed loopback port (ECONNREFUSED)', async () => {
    const port = await closedPort();
    const error = await failureOf(() => new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect());
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a drizzle query through a pool whose server is gone (the error wrapped, its cause the refusal)', async () => {
    const port = await closedPort();
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'x', database: 'x' });
    const error = await failureOf(() => drizzle(pool).execute(sql`select 1`));
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a server that hangs up during the handshake (Connection terminated unexpectedly)', async () => {
    const port = await listen((socket) => socket.destroy());
    const error = await failureOf(() => new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect());
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a pool that cannot get a connection in time (a server that never answers)', async () => {
    const port = await listen(() => {});
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'x', database: 'x', connectionTimeoutMillis: 200 });
    const error = await failureOf(() => pool.query('select 1'));
    await pool.end().catch(() => {});
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  const sqlStates: [string, string, string, boolean][] = [
    ['57P01', 'terminating connection due to administrator command', 'a server shutting down', true],
    ['57P03', 'the database system is starting up', 'a server starting up', true],
    ['08006', 'connection failure', 'a connection failure', true],
    ['23505', 'duplicate key value violates unique constraint "users_email"', 'a unique violation', false],
    ['42P01', 'relation "nope" does not exist', 'a missing table', false],
    ['57014', 'canceling statement due to statement timeout', 'a statement timeout', false],
  ];
  it.each(sqlStates)('SQLSTATE %s (%s): %s -> %s', (code, message, _name, expected) => {
    const error = Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });

  it('is false for bugs and for the closed list of expected failures', () => {
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(new AppError('not_found', 'message not found'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
