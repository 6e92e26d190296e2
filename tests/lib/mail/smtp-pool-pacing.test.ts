import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpPool } from '@/lib/mail/smtp-pool';

/** A loopback MX that counts open sessions and transactions in DATA at once (each held `delayMs`). */
async function destination(options: { delayMs: number; throttleSecondRcpt?: boolean }) {
  const state = { open: 0, inData: 0, maxInData: 0, rcpts: 0, server: null as unknown as SMTPServer, port: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      state.open++;
      callback();
    },
    onClose() {
      state.open--;
    },
    onRcptTo(_address, _session, callback) {
      if (options.throttleSecondRcpt && ++state.rcpts === 2)
        return callback(Object.assign(new Error('4.7.28 unusual rate of unsolicited mail'), { responseCode: 421 }));
      callback();
    },
    onData(stream, _session, callback) {
      state.inData++;
      state.maxInData = Math.max(state.maxInData, state.inData);
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          state.inData--;
          callback();
        }, options.delayMs),
      );
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(server);
  state.server = server;
  state.port = (server.server.address() as { port: number }).port;
  return state;
}

const opened: SMTPServer[] = [];
const pools: SmtpPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  await Promise.all(opened.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

function pacedPool(port: number, limit: () => number, maxWaitMs?: number, spacingMs = () => 0) {
  const pool = new SmtpPool([{ host: 'mx.test', address: '127.0.0.1', port, secure: false }], {
    ehloName: 'client.test',
    maxConnections: 8,
    timeoutMs: 5000,
    pacedLimit: limit,
    pacedSpacingMs: spacingMs,
    maxWaitMs,
  });
  pools.push(pool);
  return pool;
}

const raw = Buffer.from('From: a@sender.test\r\nTo: b@mx.test\r\nSubject: x\r\n\r\nhello\r\n');
const sendMany = (pool: SmtpPool, count: number) =>
  Promise.all(
    Array.from({ length: count }, () =>
      pool.send({ from: 'a@sender.test', to: 'b@mx.test' }, raw, {
        onDataSent: () => {},
        settle: async (result) => result,
      }),
    ),
  );

describe('SmtpPool under provider pacing', () => {
  it('uses every connection at full speed, no more than the paced limit when slowed, and closes the rest', async () => {
    const mx = await destination({ delayMs: 30 });
    let limit = 8;
    const pool = pacedPool(mx.port, () => limit);
    const fast = await sendMany(pool, 40);
    expect(fast.every((result) => result.kind === 'accepted')).toBe(true);
    expect(mx.maxInData).toBeGreaterThanOrEqual(6);

    limit = 2;
    mx.maxInData = 0;
    const slow = await sendMany(pool, 40);
    expect(slow.every((result) => result.kind === 'accepted')).toBe(true);
    expect(mx.maxInData).toBeLessThanOrEqual(2);
    await expect.poll(() => mx.open).toBeLessThanOrEqual(2);

    limit = 8;
    mx.maxInData = 0;
    await sendMany(pool, 40);
    expect(mx.maxInData).toBeGreaterThanOrEqual(6);
  });

  it('a 421 4.7.28 on a kept connection is a throttling reply to settle, not a closed session to retry at once', async () => {
    const mx = await destination({ delayMs: 0, throttleSecondRcpt: true });
    const pool = pacedPool(mx.port, () => 1);
    const [first] = await sendMany(pool, 1);
    expect(first.kind).toBe('accepted');
    const [second] = await sendMany(pool, 1);
    expect(second).toMatchObject({ kind: 'rejected', code: 421 });
    expect(second.kind === 'rejected' && second.response).toContain('4.7.28');
  });

  it('a message that waits for a paced connection longer than maxWaitMs is deferred unsent (451 4.4.5, local), the rest go', async () => {
    const mx = await destination({ delayMs: 150 });
    const pool = pacedPool(mx.port, () => 1, 400);
    const results = await sendMany(pool, 8);
    const late = results.filter((result) => result.kind === 'rejected');
    const accepted = results.filter((result) => result.kind === 'accepted');
    // One connection, 150 ms a message: about three go within 400 ms, the others are handed back.
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(late.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length + late.length).toBe(8);
    for (const result of late)
      expect(result).toMatchObject({ code: 451, host: 'local', response: /^451 4\.4\.5 waited too long/ });
    expect(mx.maxInData).toBe(1);
    // Nothing is left waiting: the pool can be used again at once.
    expect((await sendMany(pool, 1))[0].kind).toBe('accepted');
  });

  it('spaced: messages start one spacing apart; one whose turn is past maxWaitMs is deferred unsent, taking no turn', async () => {
    const mx = await destination({ delayMs: 0 });
    const starts: number[] = [];
    const pool = pacedPool(
      mx.port,
      () => 8,
      1300,
      () => 500,
    );
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        pool.send({ from: 'a@sender.test', to: 'b@mx.test' }, raw, {
          onDataSent: () => starts.push(Date.now()),
          settle: async (result) => result,
        }),
      ),
    );
    // Turns from the first connection's opening, 500 ms apart: three within the 1.3 s wait, not the other three.
    expect(results.filter((result) => result.kind === 'accepted')).toHaveLength(3);
    for (const result of results.filter((result) => result.kind === 'rejected'))
      expect(result).toMatchObject({ code: 451, host: 'local', response: /^451 4\.4\.5 waited too long for its turn/ });
    const gaps = starts
      .sort((a, b) => a - b)
      .slice(1)
      .map((start, index) => start - starts[index]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(490);
  });
});
