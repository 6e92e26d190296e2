import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options';
import { PriorityGate } from './pglite-priority';
import type { ThreadReply, ThreadRequest, ThreadError } from './open-pglite-thread';

/**
 * The embedded database's own thread (open-pglite-thread.ts): PGlite's engine, the larger part of
 * the event loop's time under delivery load, runs here and no longer holds up requests and sockets.
 * Statements queue here, the foreground's first (PriorityGate), and run back to back.
 */
const port = parentPort!;
const { dataDir } = workerData as { dataDir: string | null };
// PGlite runs a statement to its end without yielding, so requests that came in meanwhile are still
// in the port: taken in before each turn, so that a foreground one can go before earlier background ones.
const gate = new PriorityGate(() => {
  for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port))
    onMessage(received.message as ThreadRequest);
});
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>();
let nextTransaction = 1;

// Parsers that hand the text over as it is, per set of type oids (drizzle passes the same few).
const rawParsers = new Map<string, Record<number, (text: string) => string>>();
function parsersFor(oids: number[] | undefined) {
  if (!oids?.length) return undefined;
  const key = oids.join(',');
  if (!rawParsers.has(key)) rawParsers.set(key, Object.fromEntries(oids.map((oid) => [oid, (text: string) => text])));
  return rawParsers.get(key);
}

/** The error's message and PostgreSQL fields (code, constraint, table...), which survive the thread boundary. */
function describeError(error: unknown): ThreadError {
  const out: ThreadError = {
    message: error instanceof Error ? error.message : String(error),
    name: error instanceof Error ? error.name : 'Error',
  };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
    }
  }
  return out;
}

const client = await PGlite.create(pgliteOptions(dataDir ?? undefined)).catch((error: unknown) => {
  port.postMessage({ id: 0, error: describeError(error) } satisfies ThreadReply);
  return null;
});

function openTransaction(id: number): Transaction {
  const open = transactions.get(id);
  if (!open) throw new Error('the transaction has ended');
  return open.tx;
}

async function handle(request: ThreadRequest): Promise<unknown> {
  if (!client) throw new Error('the embedded database did not open');
  switch (request.kind) {
    case 'query': {
      const run = (on: PGlite | Transaction) =>
        on.query(request.sql, request.params, { rowMode: request.rowMode, parsers: parsersFor(request.rawOids) });
      // A transaction's statements run in its gate turn, which it already holds.
      return request.tx ? run(openTransaction(request.tx)) : gate.run(request.isForeground, () => run(client));
    }
    case 'exec':
      return request.tx
        ? openTransaction(request.tx).exec(request.sql)
        : gate.run(request.isForeground, () => client.exec(request.sql));
    case 'begin': {
      let end!: (commit: boolean) => void;
      const ended = new Promise<boolean>((resolve) => (end = resolve));
      let opened!: (tx: Transaction) => void;
      const open = new Promise<Transaction>((resolve) => (opened = resolve));
      // One gate turn for the whole transaction: it ends when the main thread says commit or roll back.
      const done = gate.run(request.isForeground, () =>
        client.transaction(async (tx) => {
          opened(tx);
          if (!(await ended)) await tx.rollback();
        }),
      );
      const tx = await Promise.race([
        open,
        done.then(() => Promise.reject(new Error('the transaction ended before it began'))),
      ]);
      const id = nextTransaction++;
      transactions.set(id, { tx, end, done });
      return id;
    }
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('the transaction has ended');
      transactions.delete(request.tx);
      open.end(request.commit);
      // COMMIT can still fail (an aborted transaction rolls back): the caller hears of it.
      await open.done;
      return null;
    }
    case 'dump':
      // In a gate turn of its own, so between transactions; the checkpoint puts every committed
      // change in the data files, so the copy needs no WAL replay when it is opened.
      return gate.run(false, async () => {
        await client.exec('CHECKPOINT');
        return new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
      });
    case 'close':
      if (!client.closed) await client.close();
      return null;
  }
}

function onMessage(request: ThreadRequest) {
  const fail = (error: unknown) =>
    port.postMessage({ id: request.id, error: describeError(error) } satisfies ThreadReply);
  handle(request).then((result) => {
    try {
      // A dump is handed over, not copied: it is the size of the whole database.
      const transfer = result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : [];
      port.postMessage(
        { id: request.id, result: result as Results | Uint8Array | number | null } satisfies ThreadReply,
        transfer,
      );
    } catch (error) {
      // A value that cannot cross back: the caller hears why instead of waiting for good.
      fail(error);
    }
  }, fail);
}
port.on('message', onMessage);
if (client) port.postMessage({ id: 0, result: null } satisfies ThreadReply);
