import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export type SmtpTarget = {
  host: string;
  address: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
};

export type SendResult =
  | { kind: 'accepted'; response: string; host: string }
  | { kind: 'rejected'; code: number; response: string; host: string }
  | { kind: 'unreachable'; reason: string };

type PooledConnection = {
  connection: SMTPConnection;
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

  constructor(
    private readonly targets: SmtpTarget[],
    private readonly options: { ehloName: string; maxConnections: number; timeoutMs: number },
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
    for (let attempt = 1; ; attempt++) {
      const acquired = await this.acquire();
      if ('reason' in acquired) return hooks.settle({ kind: 'unreachable', reason: acquired.reason });
      const { pooled, isReused } = acquired;
      let result: SendResult;
      let isReusable: boolean;
      try {
        const response = await this.transmit(pooled.connection, envelope, raw, onDataSent);
        pooled.sent++;
        result = { kind: 'accepted', response, host: pooled.target.host };
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
          if (isReused && !isDataSent && attempt === 1) continue;
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
    connection: SMTPConnection,
    envelope: { from: string; to: string },
    raw: Buffer,
    onDataSent: () => void,
  ): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const stream = Readable.from([raw]);
      stream.once('end', onDataSent);
      // A copy: nodemailer writes the failure of a transaction onto the envelope it was given.
      connection.send({ ...envelope }, stream, (error, info) =>
        error ? reject(error) : resolve(info.response ?? '250 OK'),
      );
    });
  }

  private reset(connection: SMTPConnection): Promise<boolean> {
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

  /** An idle connection (`isReused`), or a new one when fewer than the maximum are open. */
  private async acquire(): Promise<{ pooled: PooledConnection; isReused: boolean } | { reason: string }> {
    for (;;) {
      const idle = this.connections.find((pooled) => !pooled.isBusy);
      if (idle?.connection.destroyed) {
        this.drop(idle);
        continue;
      }
      if (idle) {
        idle.isBusy = true;
        return { pooled: idle, isReused: true };
      }
      if (this.connections.length < this.options.maxConnections) {
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
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(pooled: PooledConnection, isReusable: boolean) {
    pooled.lastUsed = Date.now();
    if (isReusable) pooled.isBusy = false;
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

  private connect(target: SmtpTarget): Promise<SMTPConnection> {
    return new Promise((resolve, reject) => {
      const connection = new SMTPConnection({
        host: target.address,
        port: target.port,
        secure: target.secure,
        name: this.options.ehloName,
        opportunisticTLS: true,
        tls: { rejectUnauthorized: false, servername: target.host },
        connectionTimeout: this.options.timeoutMs,
        greetingTimeout: this.options.timeoutMs,
        socketTimeout: this.options.timeoutMs,
      } as never);
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
