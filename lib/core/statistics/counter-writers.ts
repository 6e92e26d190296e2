import cluster from 'node:cluster';

/*
 * Whose counter rows a change goes to: the stats tables' `writer` column, which readers sum over.
 *
 * On PostgreSQL a counter row stays locked until its writer commits (an fsync), so writers that
 * share rows wait for each other: an API request waited for a delivery batch's commit, and for
 * the other requests in flight that counted the same account, hour and domains. There, each
 * process counts its delivery outcomes in rows of their own, and each acceptance in flight takes
 * rows no other acceptance in flight in the process holds (a lane: the lowest free one). Processes
 * on other hosts may share a slot; then they wait for each other, as every writer did before.
 * The fold job (fold-counter-rows.ts) sums the rows of hours and days that have ended into one.
 *
 * PGlite runs one statement at a time on one connection: no row locks to wait for, so everything
 * counts in the shared rows (writer 0), as do the rare writers (bounces by mail, complaints,
 * opens and clicks) everywhere.
 */

export const SHARED_COUNTER_WRITER = 0;
/** Where the fold job sums the rows of ended hours and days; no other writer uses it. */
export const FOLDED_COUNTER_WRITER = -1;

// Writers of slot s: s * 16 + 1 for delivery, s * 16 + 2 to s * 16 + 15 for acceptance lanes.
const SLOTS = 8;
const PER_SLOT = 16;
// A cluster worker's id grows when a worker is forked again: slots wrap, and sharing one is still correct.
const slot = cluster.isWorker && cluster.worker ? (cluster.worker.id - 1) % SLOTS : 0;
const acceptancesInFlight = new Array<number>(PER_SLOT - 2).fill(0);
let isSplit = false;

/** Set once the database is open (lib/server/registry.ts): PostgreSQL splits the rows, PGlite shares them. */
export function useCounterRowsFor(database: 'pglite' | 'postgres'): void {
  isSplit = database === 'postgres';
}

/** This process's delivery outcomes. */
export function deliveryCounterWriter(): number {
  return isSplit ? slot * PER_SLOT + 1 : SHARED_COUNTER_WRITER;
}

/**
 * Runs an acceptance's write with counter rows that no other acceptance in flight in this process
 * holds: the lowest free lane, or the least used one when all are taken.
 */
export async function withAcceptanceCounterWriter<T>(write: (writer: number) => Promise<T>): Promise<T> {
  if (!isSplit) return write(SHARED_COUNTER_WRITER);
  let lane = 0;
  for (let candidate = 1; candidate < acceptancesInFlight.length; candidate++) {
    if (acceptancesInFlight[candidate] < acceptancesInFlight[lane]) lane = candidate;
  }
  acceptancesInFlight[lane]++;
  try {
    return await write(slot * PER_SLOT + 2 + lane);
  } finally {
    acceptancesInFlight[lane]--;
  }
}
