import type { Services } from '@/lib/core/context';
import type { LoopDefinition } from './run-loop';

/** What every row of the worker table is built from: the process's services and its worker identity. */
export type WorkerContext = {
  services: Services;
  /** The id every lease of this process carries; its heartbeat says the process is alive (heartbeat.ts). */
  workerId: string;
  database: 'pglite' | 'postgres';
  /** The embedded database: one process opens it, so at start any lease is a dead process's. */
  isOnlyProcess: boolean;
};

/** The worker role's tuning that is not core configuration (lib/server/config.ts reads it; tests shrink it). */
export type WorkerSettings = {
  jobPollMs: number;
  retentionPurgeIntervalSeconds: number;
  campaigns?: { pollMs?: number; batchSize?: number; snapshotChunk?: number };
  contactImports?: { pollMs?: number; leaseMs?: number; batchRows?: number; maxAttempts?: number };
  contactExports?: { pollMs?: number; leaseMs?: number; pageRows?: number; maxAttempts?: number };
  segmentRecounts?: { staleSeconds?: number; pollMs?: number; leaseMs?: number };
};

/** A loop whose item type is its own business (the table holds loops of different items). */
export type AnyLoopDefinition = LoopDefinition<unknown>;

/** A row of the worker table: builds its loop's definition for this process. */
export type LoopRow = {
  name: string;
  define: (worker: WorkerContext, settings: WorkerSettings) => AnyLoopDefinition | Promise<AnyLoopDefinition>;
};

export function anyLoop<Item>(definition: LoopDefinition<Item>): AnyLoopDefinition {
  return definition as unknown as AnyLoopDefinition;
}
