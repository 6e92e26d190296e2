import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { signalWork } from '@/lib/core/shared/work-signal';
import { idleSleepMs, startLoop, type LoopDefinition } from '@/lib/workers/run-loop';

/** A logger whose lines the test reads (pino, to an in-memory stream). */
function capturedLogger() {
  const lines: { level: number; msg: string; loop?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const waitUntil = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** A queue of numbered items that the loop claims from, as a table of due rows would be. */
function queueOf(count: number) {
  const due = Array.from({ length: count }, (_, index) => index);
  return { due, take: (free: number) => due.splice(0, free) };
}

describe('startLoop: the one background primitive', () => {
  it('an idle loop polls less and less often, up to 2 s, and work found or a signal makes it eager again', async () => {
    expect([0, 1, 2, 3, 4, 5].map((rounds) => idleSleepMs(250, rounds))).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    // A loop whose own poll is longer keeps it; a short poll (a test's 100 ms) grows to eight times.
    expect(idleSleepMs(5000, 3)).toBe(5000);
    expect(idleSleepMs(100, 6)).toBe(800);
    const { logger } = capturedLogger();
    const queue = queueOf(0);
    const claims: number[] = [];
    const ran: number[] = [];
    const loop = await startLoop<number>(
      {
        name: 'test',
        capacity: 1,
        pollMs: 25,
        wakeOn: 'contact-exports',
        claim: async (free) => (claims.push(Date.now()), queue.take(free)),
        run: async (item) => void ran.push(item),
      },
      { logger, isOnlyProcess: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Polling every 25 ms it would have claimed ~24 times; sleeping 25, 50, 100, 200, 200 ms, about 6.
    expect(claims.length).toBeLessThanOrEqual(8);
    queue.due.push(1);
    const signalled = Date.now();
    signalWork('contact-exports');
    await waitUntil(() => ran.includes(1));
    expect(Date.now() - signalled).toBeLessThan(200);
    await loop.stop();
  });

  it('a signal wakes an idle loop long before its poll', async () => {
    const { logger } = capturedLogger();
    const queue = queueOf(0);
    const ran: number[] = [];
    const loop = await startLoop<number>(
      {
        name: 'test',
        capacity: 1,
        pollMs: 60_000,
        wakeOn: 'contact-imports',
        claim: async (free) => queue.take(free),
        run: async (item) => void ran.push(item),
      },
      { logger, isOnlyProcess: true },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const signalled = performance.now();
      queue.due.push(7);
      signalWork('contact-imports');
      await waitUntil(() => ran.length === 1, 2_000);
      expect(ran).toEqual([7]);
      expect(performance.now() - signalled).toBeLessThan(1_000);
    } finally {
      await loop.stop();
    }
  });

  it('never runs more items at once than its capacity, and claims while items run', async () => {
    const { logger } = capturedLogger();
    const queue = queueOf(40);
    let running = 0;
    let most = 0;
    const asked: number[] = [];
    const definition: LoopDefinition<number> = {
      name: 'test',
      capacity: 3,
      pollMs: 10,
      claim: async (free) => {
        asked.push(free);
        return queue.take(free);
      },
      run: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
        running--;
      },
    };
    const loop = await startLoop(definition, { logger, isOnlyProcess: true });
    await waitUntil(() => queue.due.length === 0 && running === 0);
    await loop.stop();
    expect(most).toBe(3);
    expect(asked.every((free) => free >= 1 && free <= 3)).toBe(true);
    // Some claims came while items ran: fewer than three slots free.
    expect(asked.some((free) => free < 3)).toBe(true);
  });

  it('stop waits for the items in flight and claims nothing more', async () => {
    const { logger } = capturedLogger();
    const queue = queueOf(100);
    const finished: number[] = [];
    let claims = 0;
    const loop = await startLoop<number>(
      {
        name: 'test',
        capacity: 2,
        pollMs: 10,
        claim: async (free) => {
          claims++;
          return queue.take(free);
        },
        run: async (item) => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          finished.push(item);
        },
      },
      { logger, isOnlyProcess: true },
    );
    await waitUntil(() => queue.due.length === 98);
    await loop.stop();
    // Both items claimed before the stop ran to their end before the stop returned.
    expect(finished.sort()).toEqual([0, 1]);
    const claimsAtStop = claims;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(claims).toBe(claimsAtStop);
    expect(queue.due).toHaveLength(98);
  });

  it('an error in a run is logged, and the loop goes on with the next items', async () => {
    const { logger, lines } = capturedLogger();
    const queue = queueOf(5);
    const ran: number[] = [];
    const loop = await startLoop<number>(
      {
        name: 'flaky',
        capacity: 1,
        pollMs: 10,
        claim: async (free) => queue.take(free),
        run: async (item) => {
          if (item === 1) throw new Error('item 1 broke');
          ran.push(item);
        },
      },
      { logger, isOnlyProcess: true },
    );
    await waitUntil(() => ran.length === 4);
    await loop.stop();
    expect(ran).toEqual([0, 2, 3, 4]);
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ loop: 'flaky', err: { message: 'item 1 broke' } });
  });

  it('settle hears how each run ended, and a failing claim is tried again at the next poll', async () => {
    const { logger, lines } = capturedLogger();
    const queue = queueOf(3);
    let isClaimBroken = true;
    const settled: [number, string | null][] = [];
    const loop = await startLoop<number>(
      {
        name: 'settling',
        capacity: 2,
        pollMs: 10,
        claim: async (free) => {
          if (isClaimBroken) {
            isClaimBroken = false;
            throw new Error('database away');
          }
          return queue.take(free);
        },
        run: async (item) => {
          if (item === 2) throw new Error('no handler');
        },
        settle: async (item, error) => void settled.push([item, error === null ? null : (error as Error).message]),
      },
      { logger, isOnlyProcess: true },
    );
    await waitUntil(() => settled.length === 3);
    await loop.stop();
    expect(settled.sort()).toEqual([
      [0, null],
      [1, null],
      [2, 'no handler'],
    ]);
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
      'settling: claiming failed; tried again at the next poll',
    ]);
  });
});
