import { Worker } from 'node:worker_threads';
import { types, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type Request =
  | {
      kind: 'query';
      sql: string;
      params: unknown[] | undefined;
      rowMode: QueryOptions['rowMode'];
      rawOids: number[] | undefined;
      isForeground: boolean;
      tx: number | null;
    }
  | { kind: 'exec'; sql: string; isForeground: boolean; tx: number | null }
  | { kind: 'begin'; isForeground: boolean }
  | { kind: 'end'; tx: number; commit: boolean }
  | { kind: 'dump' }
  | { kind: 'close' };
export type ThreadRequest = Request & { id: number };
/** An error as it crosses the thread boundary: its message and PostgreSQL fields (code, constraint...). */
export type ThreadError = Record<string, unknown> & { message: string; name: string };
export type ThreadReply =
  { id: number; result: Results | Results[] | Uint8Array | number | null } | { id: number; error: ThreadError };

/** A PGlite error rebuilt on this side, with the SQLSTATE `code` and the fields the code and logs read. */
class DatabaseError extends Error {
  constructor(fields: ThreadError) {
    super(fields.message);
    Object.assign(this, fields);
  }
}

export type PgliteThread = {
  /** For work a client waits on: its statements go before the background's (PriorityGate). */
  foreground: PGlite;
  background: PGlite;
  /** The data directory as an uncompressed tarball (PGlite's dumpDataDir), taken between statements. */
  dumpDataDir(): Promise<Uint8Array>;
  close(): Promise<void>;
};

const THREAD_ENTRY = new URL('./pglite-thread.mjs', import.meta.url);

/**
 * The embedded database on a thread of its own (pglite-thread.ts). Under delivery load PGlite's
 * engine was 40% of the event loop, and an API request waited for whatever statement was running;
 * now the loop only moves data and the engine has the other core. The two views are what drizzle
 * needs of a PGlite client: `query`, `exec`, and `transaction`, whose statements carry its id.
 */
export async function openPgliteThread(dataDir: string | null): Promise<PgliteThread> {
  // Nothing of the server's environment (it holds secrets) nor its loader flags (the entry registers tsx).
  const thread = new Worker(THREAD_ENTRY, { workerData: { dataDir }, env: {}, execArgv: [] });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let stopped: Error | null = null;

  // The thread keeps the process alive only while a statement is out (a CLI command ends when its work does).
  thread.unref();
  const settle = (id: number, outcome: { result: unknown } | { error: Error }) => {
    const waiter = pending.get(id);
    if (!waiter) return;
    pending.delete(id);
    if (pending.size === 0) thread.unref();
    if ('error' in outcome) waiter.reject(outcome.error);
    else waiter.resolve(outcome.result);
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const id of [...pending.keys()]) settle(id, { error: stopped });
  };
  thread.on('message', (reply: ThreadReply) =>
    settle(reply.id, 'error' in reply ? { error: new DatabaseError(reply.error) } : { result: reply.result }),
  );
  thread.on('error', (error) => stop(new Error(`the embedded database stopped: ${error.message}`)));
  thread.on('exit', (code) => stop(new Error(`the embedded database stopped (thread exit ${code})`)));

  const replyTo = <T>(id: number): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    if (pending.size === 0) thread.ref();
    return new Promise<T>((resolve, reject) =>
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
  };
  const call = <T>(request: Request): Promise<T> => {
    const id = nextId++;
    const reply = replyTo<T>(id);
    try {
      if (!stopped) thread.postMessage({ id, ...request });
    } catch (error) {
      // A parameter that cannot cross (a function, say) fails this statement, not the thread.
      settle(id, { error: error as Error });
    }
    return reply;
  };

  // Reply 0 is the thread's own: the database is open, or why it is not.
  await replyTo(0);

  const view = (isForeground: boolean, tx: number | null): PGlite => {
    const client = {
      async query(sql: string, params?: unknown[], options?: QueryOptions) {
        // drizzle's parsers leave some types as text; they are functions, which cannot cross, so their type oids do.
        const rawOids = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
        return withBuffers(
          await call<Results>({ kind: 'query', sql, params, rowMode: options?.rowMode, rawOids, isForeground, tx }),
        );
      },
      async exec(sql: string) {
        return (await call<Results[]>({ kind: 'exec', sql, isForeground, tx })).map(withBuffers);
      },
      async transaction<T>(work: (tx: PGlite) => Promise<T>): Promise<T> {
        const id = await call<number>({ kind: 'begin', isForeground });
        let result: T;
        try {
          result = await work(view(isForeground, id));
        } catch (error) {
          await call({ kind: 'end', tx: id, commit: false }).catch(() => {});
          throw error;
        }
        await call({ kind: 'end', tx: id, commit: true });
        return result;
      },
      get closed() {
        return stopped !== null;
      },
    };
    return client as unknown as PGlite;
  };

  return {
    foreground: view(true, null),
    background: view(false, null),
    dumpDataDir: () => call<Uint8Array>({ kind: 'dump' }),
    async close() {
      if (stopped) return;
      await call({ kind: 'close' });
      stop(new Error('the embedded database is closed'));
      await thread.terminate();
    },
  };
}

/** bytea values arrive as plain Uint8Arrays (a Buffer does not survive the crossing): Buffers again, without a copy. */
function withBuffers(result: Results): Results {
  const columns = result.fields.flatMap((field, index) =>
    field.dataTypeID === types.BYTEA ? [{ index, name: field.name }] : [],
  );
  if (columns.length === 0) return result;
  const asBuffer = (value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { index, name } of columns) {
      const key = Array.isArray(row) ? index : name;
      row[key] = asBuffer(row[key]);
    }
  }
  return result;
}
