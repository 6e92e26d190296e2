import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger';
import { processCount, type ProcessGroup } from './plan-processes';

/** What a worker process tells the primary once its roles are started. */
export type WorkerReadyMessage = { kind: 'mailstead:ready' };
export const READY_MESSAGE: WorkerReadyMessage = { kind: 'mailstead:ready' };

export type SupervisionPolicy = {
  /** This many unexpected exits within `crashWindowMs` stop everything (exit 1). */
  maxCrashes: number;
  crashWindowMs: number;
  /** Restart delay after the n-th recent crash: firstBackoffMs * 2^(n-1), at most maxBackoffMs. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** A graceful stop that takes longer than this ends with SIGKILL (exit 1). */
  stopTimeoutMs: number;
};

export const DEFAULT_POLICY: SupervisionPolicy = {
  maxCrashes: 5,
  crashWindowMs: 60_000,
  firstBackoffMs: 500,
  maxBackoffMs: 15_000,
  stopTimeoutMs: 60_000,
};

/** The restart delay after `recentCrashes` unexpected exits within the window (1 = the first). */
export function restartDelayMs(recentCrashes: number, policy: SupervisionPolicy = DEFAULT_POLICY): number {
  return Math.min(policy.maxBackoffMs, policy.firstBackoffMs * 2 ** Math.max(0, recentCrashes - 1));
}

/** What the primary tells a worker it forks: its roles (as ROLES) and its CPU priority. */
export const PROCESS_NICE_ENV = 'MAILSTEAD_PROCESS_NICE';

/**
 * The primary of `WORKERS` > 1: forks the workers of each group (plan-processes.ts; they share its
 * listening sockets: HTTPS, submission, MX), restarts one that dies unexpectedly with backoff, in
 * its group, forwards SIGTERM/SIGINT for a graceful stop. Resolves with the exit code: 0 after a
 * clean stop, 1 when a worker fails to start or workers keep crashing. `prepare` makes the shared
 * state (migrations, certificate, setup token) before the first fork.
 */
export function superviseWorkers(options: {
  groups: ProcessGroup[];
  logger: Logger;
  prepare: () => Promise<void>;
  policy?: SupervisionPolicy;
  /** Called once with a reader of how many workers are started now (for the primary's /readyz). */
  onWorkers?: (counts: () => { ready: number; expected: number }) => void;
}): Promise<number> {
  const { groups, logger } = options;
  const count = processCount(groups);
  const groupOf = new Map<number, ProcessGroup>();
  const policy = options.policy ?? DEFAULT_POLICY;
  const crashTimes: number[] = [];
  const restartTimers = new Set<NodeJS.Timeout>();
  let readyCount = 0;
  const readyNow = new Set<number>();
  options.onWorkers?.(() => ({ ready: readyNow.size, expected: count }));
  let isStarted = false;
  let isStopping = false;
  let isPrepared = false;
  let exitCode = 0;

  return new Promise<number>((resolve, reject) => {
    const living = () =>
      Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

    const finishWhenAllGone = () => {
      if (isStopping && isPrepared && living().length === 0 && restartTimers.size === 0) resolve(exitCode);
    };

    const stopAll = (reason: string, code: number) => {
      if (isStopping) return;
      isStopping = true;
      exitCode = code;
      logger.info({ reason, workers: living().map((worker) => worker.process.pid) }, 'stopping the workers');
      for (const timer of restartTimers) clearTimeout(timer);
      restartTimers.clear();
      for (const worker of living()) worker.process.kill('SIGTERM');
      const deadline = setTimeout(() => {
        const left = living();
        if (left.length === 0) return;
        logger.error(
          { workers: left.map((worker) => worker.process.pid) },
          'workers did not stop in time: killing them',
        );
        exitCode = 1;
        for (const worker of left) worker.process.kill('SIGKILL');
      }, policy.stopTimeoutMs);
      deadline.unref();
      finishWhenAllGone();
    };

    const fork = (group: ProcessGroup) => {
      const worker = cluster.fork({ ROLES: group.roles.join(','), [PROCESS_NICE_ENV]: String(group.nice) });
      groupOf.set(worker.id, group);
      worker.on('message', (message: WorkerReadyMessage) => {
        if (message?.kind !== READY_MESSAGE.kind) return;
        logger.info({ workerPid: worker.process.pid, group: group.name, roles: group.roles }, 'worker ready');
        readyCount++;
        readyNow.add(worker.id);
        if (!isStarted && readyCount === count) {
          isStarted = true;
          logger.info(
            { workers: count, groups: groups.map(({ name, count, nice }) => ({ name, count, nice })) },
            `Mailstead is running ${count} worker processes`,
          );
        }
      });
    };

    cluster.on('exit', (worker, code, signal) => {
      const pid = worker.process.pid;
      const group = groupOf.get(worker.id)!;
      groupOf.delete(worker.id);
      readyNow.delete(worker.id);
      if (isStopping) {
        if (code !== 0) exitCode = 1;
        finishWhenAllGone();
        return;
      }
      if (!isStarted) {
        // A worker that cannot start (port taken, database unreachable) will not start on a retry either.
        logger.error({ workerPid: pid, code, signal }, 'a worker failed to start');
        return stopAll('a worker failed to start', 1);
      }
      const now = Date.now();
      crashTimes.push(now);
      while (crashTimes.length > 0 && crashTimes[0] < now - policy.crashWindowMs) crashTimes.shift();
      if (crashTimes.length >= policy.maxCrashes) {
        logger.error(
          { workerPid: pid, code, signal, crashes: crashTimes.length, windowMs: policy.crashWindowMs },
          'workers keep crashing: giving up',
        );
        return stopAll('workers keep crashing', 1);
      }
      const delayMs = restartDelayMs(crashTimes.length, policy);
      logger.error(
        { workerPid: pid, group: group.name, code, signal, restartInMs: delayMs },
        'a worker exited unexpectedly: restarting it',
      );
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        if (!isStopping) fork(group);
      }, delayMs);
      restartTimers.add(timer);
    });

    // Handled from the first moment: a stop during the preparation forks nothing.
    process.on('SIGTERM', () => stopAll('SIGTERM', 0));
    process.on('SIGINT', () => stopAll('SIGINT', 0));
    options.prepare().then(() => {
      isPrepared = true;
      if (isStopping) return finishWhenAllGone();
      for (const group of groups) for (let index = 0; index < group.count; index++) fork(group);
    }, reject);
  });
}
