import type { Logger } from 'pino';
import { onWork, type WorkKind } from '@/lib/core/shared/work-signal';
import { HEARTBEAT_MS } from './liveness';

/** What a loop's functions may ask of the loop running them. */
export type LoopControl = { isStopping: () => boolean };

/**
 * One kind of background work, as the worker role runs it (a row of loops.ts). The claim takes the
 * lease on what it returns; run does the work; settle records how it ended.
 */
export type LoopDefinition<Item> = {
  /** In log lines. */
  name: string;
  /** Items in flight at once (a delivery item is a batch); a claim asks for at most the free ones. */
  capacity: number;
  /** How long an idle loop sleeps before it looks again, unless its signal comes first. */
  pollMs: number;
  wakeOn?: WorkKind;
  /** At most `free` leased items to run; none puts the loop to sleep. A claim that throws is tried again at the next poll. */
  claim: (free: number, loop: LoopControl) => Promise<Item[]>;
  /** Absent when the claim is the whole work: steps that claim, run and settle in one transaction. */
  run?: (item: Item, loop: LoopControl) => Promise<void>;
  /** How a run ended (its error, or null); without it, a failed run is logged and its lease left to lapse. */
  settle?: (item: Item, error: unknown) => Promise<void>;
  /** Claims wait while this holds (delivery, while this process queues a campaign in bulk). */
  isPaused?: () => boolean;
  /**
   * Leases of processes that are gone: at start, all of them on the embedded database (one process
   * opens it, so any holder is dead); else those of dead workers (liveness.ts), again every heartbeat.
   */
  reclaim?: { what: string; releaseAll: () => Promise<number>; reclaimDead: () => Promise<number> };
  /** After the loop has drained its work in flight: closes what the row opened. */
  close?: () => Promise<void>;
};

export type RunningLoop = { stop: () => Promise<void> };

/**
 * An idle loop polls less and less often, doubling its sleep up to eight times its poll and at most
 * this (a loop whose own poll is longer keeps it), and is back to its poll as soon as it finds work
 * or is signalled. Work made in this process signals it at once; the poll is for work that comes
 * due (retries, schedules) or from another process. An idle server polled 15-20 times a second: 5.5%
 * of a core on PGlite; 3.0% with this (measured over 30 s, an idle server with web and worker roles).
 */
export const IDLE_POLL_CAP_MS = 2000;

/** The sleep of a loop that found nothing `idleRounds` times in a row. */
export function idleSleepMs(pollMs: number, idleRounds: number): number {
  const cap = Math.max(pollMs, Math.min(IDLE_POLL_CAP_MS, pollMs * 8));
  return Math.min(pollMs * 2 ** Math.min(idleRounds, 8), cap);
}

/**
 * The one background primitive: claim up to the free capacity, run each item, settle it, claim again
 * while items run; sleep until the row's signal or its poll when nothing is due. The stop claims
 * nothing more and waits for the items in flight.
 */
export async function startLoop<Item>(
  definition: LoopDefinition<Item>,
  context: { logger: Logger; isOnlyProcess: boolean },
): Promise<RunningLoop> {
  const { name, capacity, pollMs } = definition;
  const logger = context.logger.child({ loop: name });
  const stopReclaim = definition.reclaim
    ? await startReclaim(definition.reclaim, context.isOnlyProcess, logger)
    : async () => {};

  let isStopping = false;
  // A signal while a claim runs is not lost: the loop claims again instead of sleeping.
  let isSignalled = false;
  let wake: (() => void) | null = null;
  const stopListening = definition.wakeOn
    ? onWork(definition.wakeOn, () => {
        isSignalled = true;
        wake?.();
      })
    : () => {};
  const control: LoopControl = { isStopping: () => isStopping };
  const inFlight = new Set<Promise<void>>();

  const sleep = async (ms: number, alsoOn: Promise<void>[] = []) => {
    let timer: NodeJS.Timeout | undefined;
    const slept = new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
    await (alsoOn.length > 0 ? Promise.race([...alsoOn, slept]) : slept);
    clearTimeout(timer);
    wake = null;
  };

  const runItem = async (run: NonNullable<LoopDefinition<Item>['run']>, item: Item) => {
    let failure: unknown = null;
    try {
      await run(item, control);
    } catch (error) {
      failure = error ?? new Error('run failed');
    }
    try {
      if (definition.settle) await definition.settle(item, failure);
      else if (failure !== null)
        logger.error({ err: failure }, `${name}: a run failed; its work is tried again after its lease`);
    } catch (error) {
      logger.error({ err: error }, `${name}: a run could not be settled; its work is tried again after its lease`);
    }
  };

  let idleRounds = 0;
  const loop = (async () => {
    while (!isStopping) {
      if (inFlight.size >= capacity) {
        await Promise.race(inFlight);
        continue;
      }
      if (definition.isPaused?.()) {
        await sleep(pollMs, [...inFlight]);
        continue;
      }
      try {
        isSignalled = false;
        const claimed = await definition.claim(capacity - inFlight.size, control);
        if (claimed.length === 0) {
          if (!isSignalled && !isStopping) await sleep(idleSleepMs(pollMs, idleRounds++), [...inFlight]);
          // A signal (work made in this process) makes it eager again.
          if (isSignalled) idleRounds = 0;
          continue;
        }
        idleRounds = 0;
        const { run } = definition;
        if (!run) continue;
        for (const item of claimed) {
          const running: Promise<void> = runItem(run, item).finally(() => inFlight.delete(running));
          inFlight.add(running);
        }
      } catch (error) {
        logger.error({ err: error }, `${name}: claiming failed; tried again at the next poll`);
        if (!isStopping) await sleep(pollMs);
      }
    }
    await Promise.all(inFlight);
  })();

  return {
    async stop() {
      isStopping = true;
      wake?.();
      stopListening();
      await loop;
      await stopReclaim();
      await definition.close?.();
    },
  };
}

async function startReclaim(
  reclaim: NonNullable<LoopDefinition<unknown>['reclaim']>,
  isOnlyProcess: boolean,
  logger: Logger,
): Promise<() => Promise<void>> {
  const { what } = reclaim;
  if (isOnlyProcess) {
    const freed = await reclaim.releaseAll();
    if (freed > 0) logger.warn({ freed }, `freed the ${what} that a previous process held when it stopped`);
    return async () => {};
  }
  const reclaimDead = async () => {
    const freed = await reclaim.reclaimDead();
    if (freed > 0) logger.warn({ freed }, `freed the ${what} of workers that are gone`);
  };
  await reclaimDead();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(reclaimDead).catch((error) => logger.warn({ err: error }, `${what}: lease reclaim failed`));
  }, HEARTBEAT_MS);
  // The stop waits for a reclaim under way, so nothing runs on a database being closed.
  return async () => {
    clearInterval(timer);
    await running;
  };
}
