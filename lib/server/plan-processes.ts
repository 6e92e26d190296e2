import type { Role } from './config';
import type { Config } from './config-settings';

/** Processes of one kind that the cluster primary forks, and keeps forked. */
export type ProcessGroup = { name: 'serving' | 'delivering' | 'all'; roles: Role[]; count: number; nice: number };

/**
 * How much lower the delivering processes' CPU priority is (a nice value: each step is about 25% less
 * CPU against a busy neighbour, so 10 gives requests about nine tenths of a contended core).
 */
export const DELIVERY_NICE = 10;

/**
 * The processes `mailstead start` runs under WORKERS > 1. When ROLES has the worker role and
 * others, they go to two groups of WORKERS processes each: the serving ones (web, smtp, mx: someone
 * waits on their answers) and the delivering ones (the worker role), at a lower CPU priority. In
 * one process, requests waited behind delivery's share of the core at every step; with delivery
 * niced, the kernel gives them the core first and delivery takes what is left (versus-postfix on 2
 * cores, PostgreSQL, paired runs: acceptance p50 18-20 ms and p99 47-74 ms against 28-35 and
 * 103-185, at the same delivery rate). A host that runs only some roles has one group.
 */
export function planProcesses(config: Pick<Config, 'roles' | 'workers'>): ProcessGroup[] {
  const serving = config.roles.filter((role) => role !== 'worker');
  if (!config.roles.includes('worker') || serving.length === 0)
    return [{ name: 'all', roles: config.roles, count: config.workers, nice: 0 }];
  return [
    { name: 'serving', roles: serving, count: config.workers, nice: 0 },
    { name: 'delivering', roles: ['worker'], count: config.workers, nice: DELIVERY_NICE },
  ];
}

/** How many worker processes the groups hold together. */
export function processCount(groups: ProcessGroup[]): number {
  return groups.reduce((sum, group) => sum + group.count, 0);
}
