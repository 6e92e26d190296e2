import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { classifyThrottlingReply } from './classify-throttling-reply';
import { encodeSmtpData, sendsPreEncodedData } from './smtp-data';

export type SmtpTarget = {
  host: string;
  address: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
};

export type SendResult =
  | { kind: 'accepted'; response: string; host: string; isTls: boolean }
  | { kind: 'rejected'; code: number; response: string; host: string }
  | { kind: 'unreachable'; reason: string };

type Connection = ReturnType<typeof sendsPreEncodedData>;

type PooledConnection = {
  connection: Connection;
  target: SmtpTarget;
  isBusy: boolean;
  lastUsed: number;
  sent: number;
};

const MAX_MESSAGES_PER_CONNECTION = 1000;
const IDLE_CLOSE_MS = 30_000;

/**
 * SMTP connections kept open per destination (an MX domain, or the relay) and reused for the next
 * messages, so that a busy destination costs one handshake per connection, not per message.
 * STARTTLS is used whenever the server offers it; certificates are not checked (opportunistic TLS,
 * as between MTAs).
 */
export class SmtpPool {
  private readonly connections: PooledConnection[] = [];
  private readonly waiting: (() => void)[] = [];
  /** When the next message may start, while the provider is paced to one message per spacing. */
  private nextStartAt = 0;

  constructor(
    private readonly targets: SmtpTarget[],
    private readonly options: {
      ehloName: string;
      maxConnections: number;
      timeoutMs: number;
      /** The connections the destination's provider allows now (provider-pacing.ts), at most maxConnections. */
      pacedLimit?: () => number;
      /** The least time between two messages' starts the provider allows now (provider-pacing.ts); 0: none. */
      pacedSpacingMs?: () => number;
      /** How long a message may wait for a connection before it is deferred unsent. */
      maxWaitMs?: number;
    },
  ) {}

  /**
   * Sends one message and hands the result to `settle` while the connection is still held (except
   * when it broke): the connection takes its next message only after `settle`, so a caller that
   * records the outcome there leaves at most one sent-but-unrecorded message per connection.
   */
  async send<T>(
    envelope: { from: string; to: string },
    raw: Buffer,
    hooks: { onDataSent: () => void; settle: (result: SendResult) => Promise<T> },
  ): Promise<T> {
    let isDataSent = false;
    const onDataSent = () => {
      isDataSent = true;
      hooks.onDataSent();
    };
    // Encoded once, whatever the attempts: the same bytes go on a retried connection.
    const data = encodeSmtpData(raw);
    const waitUntil = Date.now() + (this.options.maxWaitMs ?? Infinity);
    for (let attempt = 1; ; attempt++) {
      const acquired = await this.acquire(waitUntil);
      if ('isLate' in acquired)
        // A local deferral, not the destination's answer: retried on the schedule, never a bounce.
        return hooks.settle({ kind: 'rejected', code: 451, response: `451 4.4.5 ${acquired.reason}`, host: 'local' });
      if ('reason' in acquired) return hooks.settle({ kind: 'unreachable', reason: acquired.reason });
      const { pooled, isReused } = acquired;
      if (attempt === 1 && !(await this.waitForSpacing(waitUntil))) {
        this.release(pooled, true);
        const reason = 'waited too long for its turn while the provider is paced';
        return hooks.settle({ kind: 'rejected', code: 451, response: `451 4.4.5 ${reason}`, host: 'local' });
      }
      let result: SendResult;
      let isReusable: boolean;
      try {
        const response = await this.transmit(pooled.connection, envelope, data, onDataSent);
        pooled.sent++;
        result = { kind: 'accepted', response, host: pooled.target.host, isTls: pooled.connection.secure };
        isReusable = pooled.sent < MAX_MESSAGES_PER_CONNECTION;
      } catch (error) {
        const failure = error as Error & { responseCode?: number; response?: string; code?: string };
        // After a refusal the session is still in its transaction: RSET, and it can be reused.
        // Anything else (timeouts, broken sockets) and the connection is dropped.
        const isRefusal =
          typeof failure.responseCode === 'number' && failure.responseCode >= 400 && failure.responseCode !== 421;
        if (!isRefusal) {
          this.release(pooled, false);
          // A kept connection the server had closed (its idle timeout, a 421) before it took the
          // message says nothing of the destination: once more at once, on a new connection.
          // Unless the 421 says "slow down": that one is for the pacing, not to be retried at once.
          const isThrottling =
            failure.responseCode === 421 && classifyThrottlingReply(421, failure.response ?? '') !== null;
          if (isReused && !isDataSent && attempt === 1 && !isThrottling) continue;
          if (failure.responseCode === 421)
            return hooks.settle({
              kind: 'rejected',
              code: 421,
              response: (failure.response ?? failure.message).trim(),
              host: pooled.target.host,
            });
          return hooks.settle({ kind: 'unreachable', reason: `${pooled.target.host}: ${failure.message}` });
        }
        isReusable = failure.code !== 'ETIMEDOUT' && (await this.reset(pooled.connection));
        result = {
          kind: 'rejected',
          code: failure.responseCode!,
          response: (failure.response ?? failure.message).trim(),
          host: pooled.target.host,
        };
      }
      try {
        return await hooks.settle(result);
      } finally {
        this.release(pooled, isReusable);
      }
    }
  }

  private transmit(
    connection: Connection,
    envelope: { from: string; to: string },
    data: Buffer,
    onDataSent: () => void,
  ): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      connection.onDataStream = onDataSent;
      // A copy: nodemailer writes the failure of a transaction onto the envelope it was given.
      connection.send({ ...envelope }, data, (error, info) =>
        error ? reject(error) : resolve(info.response ?? '250 OK'),
      );
    });
  }

  private reset(connection: Connection): Promise<boolean> {
    return new Promise((resolve) => {
      try {
        connection.reset((error) => resolve(!error));
      } catch {
        resolve(false);
      }
    });
  }

  close(): void {
    for (const pooled of this.connections.splice(0)) pooled.connection.close();
  }

  closeIdle(now = Date.now()): void {
    for (const pooled of [...this.connections]) {
      if (!pooled.isBusy && now - pooled.lastUsed > IDLE_CLOSE_MS) this.drop(pooled);
    }
  }

  get isEmpty(): boolean {
    return this.connections.length === 0 && this.waiting.length === 0;
  }

  /**
   * Holds a message until its turn when the provider is paced to one message per spacing: turns are
   * handed out in order, one spacing apart. False, taking no turn, when its turn is past `waitUntil`.
   */
  private async waitForSpacing(waitUntil: number): Promise<boolean> {
    const spacing = this.options.pacedSpacingMs?.() ?? 0;
    if (spacing <= 0) return true;
    const startAt = Math.max(Date.now(), this.nextStartAt);
    if (startAt > waitUntil) return false;
    this.nextStartAt = startAt + spacing;
    const delay = startAt - Date.now();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return true;
  }

  private limit(): number {
    return Math.min(this.options.maxConnections, this.options.pacedLimit?.() ?? Infinity);
  }

  /**
   * An idle connection (`isReused`), or a new one when fewer than the maximum are open; while the
   * provider is paced below the maximum, no more than its limit are busy at once.
   */
  private async acquire(
    waitUntil: number,
  ): Promise<{ pooled: PooledConnection; isReused: boolean } | { reason: string } | { reason: string; isLate: true }> {
    for (;;) {
      const limit = this.limit();
      if (limit < this.options.maxConnections && this.connections.filter((pooled) => pooled.isBusy).length >= limit) {
        if (!(await this.waitForRelease(waitUntil)))
          return { reason: 'waited too long for a connection while the provider is paced', isLate: true };
        continue;
      }
      const idle = this.connections.find((pooled) => !pooled.isBusy);
      if (idle?.connection.destroyed) {
        this.drop(idle);
        continue;
      }
      if (idle) {
        idle.isBusy = true;
        return { pooled: idle, isReused: true };
      }
      if (this.connections.length < limit) {
        const placeholder = { isBusy: true } as PooledConnection;
        this.connections.push(placeholder);
        const opened = await this.open();
        const index = this.connections.indexOf(placeholder);
        if ('reason' in opened) {
          if (index !== -1) this.connections.splice(index, 1);
          this.wakeOne();
          return opened;
        }
        Object.assign(placeholder, opened, { isBusy: true });
        // A connection the server closes while it waits in the pool leaves it then.
        opened.connection.once('end', () => {
          if (!placeholder.isBusy) this.drop(placeholder);
        });
        return { pooled: placeholder, isReused: false };
      }
      if (!(await this.waitForRelease(waitUntil))) return { reason: 'waited too long for a connection', isLate: true };
    }
  }

  /** Waits for a connection to come free; false when `waitUntil` passed first. */
  private async waitForRelease(waitUntil: number): Promise<boolean> {
    const remaining = waitUntil - Date.now();
    if (remaining <= 0) return false;
    if (remaining === Infinity) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    let wake: () => void = () => {};
    const isWoken = await new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      this.waiting.push(wake);
      timer = setTimeout(() => resolve(false), remaining);
    });
    clearTimeout(timer);
    if (!isWoken) {
      // Out of the queue, so a release wakes someone still waiting instead.
      const index = this.waiting.indexOf(wake);
      if (index !== -1) this.waiting.splice(index, 1);
    }
    return isWoken;
  }

  private release(pooled: PooledConnection, isReusable: boolean) {
    pooled.lastUsed = Date.now();
    // Above a paced limit, connections close as they come free: the provider sees fewer.
    if (isReusable && this.connections.length <= this.limit()) pooled.isBusy = false;
    else this.drop(pooled);
    this.wakeOne();
  }

  private drop(pooled: PooledConnection) {
    const index = this.connections.indexOf(pooled);
    if (index !== -1) this.connections.splice(index, 1);
    try {
      pooled.connection.close();
    } catch {
      // already closed
    }
  }

  private wakeOne() {
    this.waiting.shift()?.();
  }

  /** Tries each target (MX hosts by priority, each address) until one answers. */
  private async open(): Promise<Omit<PooledConnection, 'isBusy'> | { reason: string }> {
    const failures: string[] = [];
    for (const target of this.targets) {
      try {
        const connection = await this.connect(target);
        return { connection, target, lastUsed: Date.now(), sent: 0 };
      } catch (error) {
        failures.push(`${target.host} [${target.address}]: ${(error as Error).message}`);
      }
    }
    return { reason: `could not connect: ${failures.join('; ') || 'no hosts'}` };
  }

  private connect(target: SmtpTarget): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const connection = sendsPreEncodedData(
        new SMTPConnection({
          host: target.address,
          port: target.port,
          secure: target.secure,
          name: this.options.ehloName,
          opportunisticTLS: true,
          tls: { rejectUnauthorized: false, servername: target.host },
          connectionTimeout: this.options.timeoutMs,
          greetingTimeout: this.options.timeoutMs,
          socketTimeout: this.options.timeoutMs,
        } as never),
      );
      let isSettled = false;
      connection.once('error', (error: Error) => {
        if (!isSettled) {
          isSettled = true;
          reject(error);
        }
      });
      // Errors after the handshake are reported through send callbacks; keep them from crashing us.
      connection.on('error', () => {});
      connection.connect(() => {
        if (!target.auth) {
          isSettled = true;
          return resolve(connection);
        }
        connection.login(target.auth, (error) => {
          isSettled = true;
          if (error) {
            connection.close();
            reject(error);
          } else {
            resolve(connection);
          }
        });
      });
    });
  }
}
