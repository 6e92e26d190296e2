import type { Services } from '@/lib/core/context';
import { startWorkerHeartbeat } from './heartbeat';
import { workerLoops } from './loops';
import { startLoop, type RunningLoop } from './run-loop';
import type { WorkerContext, WorkerSettings } from './worker-context';

/**
 * The worker role: registers this process (one worker id and heartbeat for every loop's leases),
 * then starts every row of the worker table; the stop ends the loops in reverse, each drained of
 * its work in flight, and forgets the worker last.
 */
export async function startWorkerRole(
  services: Services,
  options: { database: WorkerContext['database']; settings: WorkerSettings },
): Promise<RunningLoop> {
  const heartbeat = await startWorkerHeartbeat(services);
  const worker: WorkerContext = {
    services,
    workerId: heartbeat.workerId,
    database: options.database,
    isOnlyProcess: options.database === 'pglite',
  };
  const running: RunningLoop[] = [];
  const stop = async () => {
    for (const loop of running.reverse()) await loop.stop();
    await heartbeat.stop();
  };
  try {
    for (const row of workerLoops)
      running.push(
        await startLoop(await row.define(worker, options.settings), {
          logger: services.logger,
          isOnlyProcess: worker.isOnlyProcess,
        }),
      );
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}
