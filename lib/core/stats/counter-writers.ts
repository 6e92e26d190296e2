import cluster from 'node:cluster';

// A cluster worker's id grows when a worker is forked again: slots wrap, and sharing one is still correct.
const SLOTS = 8;
const slot = cluster.isWorker && cluster.worker ? (cluster.worker.id - 1) % SLOTS : 0;

/*
 * Whose counter rows a change goes to (the stats tables' `writer` column; readers sum over it).
 * On PostgreSQL a counter row stays locked until its writer commits, so writers that share rows
 * wait for each other: each process counts acceptance (and the rare writes: bounces, complaints,
 * opens and clicks) in one set of rows, and delivery outcomes in another. An API request then never
 * waits for a delivery batch's commit, nor two processes' outcome writes for each other. Processes
 * on other hosts may share a slot: then they wait for each other, as every writer did before.
 */

/** Acceptance's rows in this process (0 for a single process, PGlite's case). */
export const ACCEPTANCE_COUNTER_WRITER = 2 * slot;

/**
 * Delivery outcomes' rows in this process. PGlite runs one statement at a time on one connection:
 * there are no row locks to wait for, and outcomes share acceptance's rows (half the rows to read).
 */
export function deliveryCounterWriter(database: 'pglite' | 'postgres'): number {
  return database === 'postgres' ? 2 * slot + 1 : ACCEPTANCE_COUNTER_WRITER;
}
