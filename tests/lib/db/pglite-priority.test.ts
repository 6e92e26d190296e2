import { describe, expect, it } from 'vitest';
import { PriorityGate } from '@/lib/db/pglite-priority';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A request of two statements, the second sent 2 ms after the first's answer (a round trip), and a
 * background statement arriving while the first runs: the order they ran in.
 */
async function requestBesideBackground(lingerMs: number): Promise<string[]> {
  const gate = new PriorityGate(() => {}, lingerMs);
  const order: string[] = [];
  const request = (async () => {
    await gate.run(true, async () => {
      await pause(10);
      order.push('f1');
    });
    await pause(2);
    await gate.run(true, async () => order.push('f2'));
  })();
  await pause(1);
  const background = gate.run(false, async () => order.push('b'));
  await Promise.all([request, background]);
  return order;
}

describe('the embedded database gate', () => {
  it("keeps the turn for a request's next statement, arriving a moment later, before a waiting background one", async () => {
    expect(await requestBesideBackground(20)).toEqual(['f1', 'f2', 'b']);
  });

  it('without the pause, the background statement went between the two (what the pause is for)', async () => {
    expect(await requestBesideBackground(0)).toEqual(['f1', 'b', 'f2']);
  });

  it('lets the background go once the pause is over and no foreground came', async () => {
    const gate = new PriorityGate(() => {}, 5);
    const order: string[] = [];
    const first = gate.run(true, async () => {
      await pause(5);
      order.push('f');
    });
    const background = gate.run(false, async () => order.push('b'));
    const started = performance.now();
    await Promise.all([first, background]);
    expect(order).toEqual(['f', 'b']);
    // Waited about the pause, not forever.
    expect(performance.now() - started).toBeLessThan(1_000);
    // And the gate is free again: a statement now runs at once.
    expect(await gate.run(false, async () => 'free')).toBe('free');
  });

  it('still gives the background its turn after eight foreground statements in a row, pause or not', async () => {
    const gate = new PriorityGate(() => {}, 50);
    const order: string[] = [];
    const blocker = gate.run(true, () => pause(10));
    const background = gate.run(false, async () => order.push('b'));
    const foreground = (async () => {
      for (let index = 0; index < 12; index++) await gate.run(true, async () => order.push(`f${index}`));
    })();
    await Promise.all([blocker, background, foreground]);
    expect(order.indexOf('b')).toBeGreaterThan(0);
    expect(order.indexOf('b')).toBeLessThanOrEqual(9);
  });
});
