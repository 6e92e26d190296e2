import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpPool, type SendResult } from '@/lib/mail/smtp-pool';

/**
 * Kept connections that the destination closed: a real SMTP server on loopback that ends idle
 * sessions (its idle timeout) or answers 421 to the next transaction of a kept session. The message
 * goes at once on a new connection instead of being deferred.
 */
type Destination = { server: SMTPServer; port: number; connections: number; received: string[] };
const opened: SMTPServer[] = [];

/** `closesKeptSession`: 421 at the second MAIL FROM of a session; `closesAfterFirst`: 421 at every MAIL FROM after the first message. */
async function destination(options: {
  idleTimeoutMs?: number;
  closesKeptSession?: boolean;
  closesAfterFirst?: boolean;
}): Promise<Destination> {
  const state = { connections: 0, received: [] as string[] };
  const transactionsBySession = new Map<string, number>();
  let transactions = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    socketTimeout: options.idleTimeoutMs ?? 60_000,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onMailFrom(_address, session, callback) {
      const inSession = (transactionsBySession.get(session.id) ?? 0) + 1;
      transactionsBySession.set(session.id, inSession);
      transactions++;
      // 421 closes the session (smtp-server ends the connection after it).
      const isClosing = (options.closesKeptSession && inSession > 1) || (options.closesAfterFirst && transactions > 1);
      if (isClosing)
        return callback(Object.assign(new Error('4.4.2 idle for too long, closing'), { responseCode: 421 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.received.push(Buffer.concat(chunks).toString());
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(server);
  const port = (server.server.address() as { port: number }).port;
  return Object.assign(state, { server, port });
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const poolFor = (port: number) =>
  new SmtpPool([{ host: 'mx.test', address: '127.0.0.1', port, secure: false }], {
    ehloName: 'client.test',
    maxConnections: 1,
    timeoutMs: 5000,
  });

async function send(pool: SmtpPool, subject: string): Promise<{ result: SendResult; isDataSent: boolean }> {
  let isDataSent = false;
  const raw = Buffer.from(`From: a@sender.test\r\nTo: b@mx.test\r\nSubject: ${subject}\r\n\r\nhello\r\n`);
  const result = await pool.send({ from: 'a@sender.test', to: 'b@mx.test' }, raw, {
    onDataSent: () => (isDataSent = true),
    settle: async (settled) => settled,
  });
  return { result, isDataSent };
}

describe('SmtpPool with kept connections the destination closed', () => {
  it('sends on a new connection when the server ended the idle session', async () => {
    const mx = await destination({ idleTimeoutMs: 200 });
    const pool = poolFor(mx.port);
    expect((await send(pool, 'first')).result.kind).toBe('accepted');
    // Long enough for the server's idle timeout to end the session.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = await send(pool, 'second');
    pool.close();
    expect(second.result).toMatchObject({ kind: 'accepted' });
    expect(mx.connections).toBe(2);
    expect(mx.received.filter((raw) => raw.includes('Subject: second'))).toHaveLength(1);
  });

  it('retries at once on a new connection when a kept session answers 421 at MAIL FROM, and sends the message once', async () => {
    const mx = await destination({ closesKeptSession: true });
    const pool = poolFor(mx.port);
    expect((await send(pool, 'first')).result.kind).toBe('accepted');
    const second = await send(pool, 'second');
    pool.close();
    expect(second).toMatchObject({ result: { kind: 'accepted' }, isDataSent: true });
    expect(mx.connections).toBe(2);
    expect(mx.received.filter((raw) => raw.includes('Subject: second'))).toHaveLength(1);
  });

  it('retries only once: a new connection that answers 421 too defers the message with that reply', async () => {
    const mx = await destination({ closesAfterFirst: true });
    const pool = poolFor(mx.port);
    expect((await send(pool, 'first')).result.kind).toBe('accepted');
    const second = await send(pool, 'second');
    pool.close();
    expect(second.result).toMatchObject({ kind: 'rejected', code: 421 });
    expect(second.isDataSent).toBe(false);
    expect(mx.connections).toBe(2);
  });
});
