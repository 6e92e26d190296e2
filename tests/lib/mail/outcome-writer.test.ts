import { describe, expect, it } from 'vitest';
import type { ClaimedMessage } from '@/lib/mail/claim-due-messages';
import type { Outcome } from '@/lib/mail/outcome';
import { OutcomeWriter, type RecordedOutcome } from '@/lib/mail/outcome-writer';

const message = (id: string) => ({ id }) as ClaimedMessage;
const delivered: Outcome = { kind: 'delivered', log: '250 ok' };

/** A write that records its groups and finishes only when the test says so. */
function controlledWrite() {
  const groups: { ids: string[]; marks: string[] }[] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const write = (outcomes: RecordedOutcome[], marks: string[]) =>
    new Promise<void>((resolve, reject) => {
      groups.push({ ids: outcomes.map((entry) => entry.message.id), marks });
      finishers.push((error) => (error ? reject(error) : resolve()));
    });
  const finishNext = async (error?: Error) => {
    while (finishers.length === 0) await tick();
    finishers.shift()!(error);
    await tick();
  };
  return { groups, write, finishNext };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('OutcomeWriter', () => {
  it('writes one group at a time; what arrives during a write goes into the next group', async () => {
    const { groups, write, finishNext } = controlledWrite();
    const writer = new OutcomeWriter(write);
    const settled: string[] = [];
    const record = (id: string) => writer.record(message(id), delivered).then(() => settled.push(id));
    void record('a');
    void record('b');
    await tick();
    expect(groups.map((group) => group.ids)).toEqual([['a', 'b']]);
    void record('c');
    void record('d');
    void record('e');
    await tick();
    expect(groups).toHaveLength(1);
    await finishNext();
    expect(settled).toEqual(['a', 'b']);
    expect(groups.map((group) => group.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    await finishNext();
    expect(settled).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(groups).toHaveLength(2);
  });

  it('callers wait for the commit of their own group', async () => {
    const { write, finishNext } = controlledWrite();
    const writer = new OutcomeWriter(write);
    let isDone = false;
    void writer.record(message('a'), delivered).then(() => (isDone = true));
    await tick();
    await tick();
    expect(isDone).toBe(false);
    await finishNext();
    expect(isDone).toBe(true);
  });

  it('a failed write is retried with the same group; after the last retry its callers (only they) fail', async () => {
    const { groups, write, finishNext } = controlledWrite();
    const errors: number[] = [];
    const writer = new OutcomeWriter(write, { onError: (_error, count) => errors.push(count) });
    const first = writer.record(message('a'), delivered);
    const outcome = first.then(
      () => 'ok',
      (error: Error) => error.message,
    );
    await tick();
    for (let attempt = 0; attempt < 4; attempt++) await finishNext(new Error('database down'));
    expect(await outcome).toBe('database down');
    expect(groups.map((group) => group.ids)).toEqual([['a'], ['a'], ['a'], ['a']]);
    expect(errors).toEqual([1]);
    const second = writer.record(message('b'), delivered);
    await finishNext();
    await expect(second).resolves.toBeUndefined();
  }, 10_000);

  it('a "DATA sent" mark travels with its outcome, or alone once its reply is slow', async () => {
    const { groups, write, finishNext } = controlledWrite();
    let now = 1_000;
    const writer = new OutcomeWriter(write, { now: () => now });
    writer.markDataSent('a');
    writer.markDataSent('b');
    void writer.record(message('a'), delivered);
    await tick();
    expect(groups[0]).toEqual({ ids: ['a'], marks: ['a'] });
    await finishNext();
    now += 10;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(groups[1]).toEqual({ ids: [], marks: ['b'] });
    await finishNext();
  });

  it('with delayMs a group gathers, unless it is already full', async () => {
    const { groups, write, finishNext } = controlledWrite();
    const writer = new OutcomeWriter(write, { delayMs: 50, fullGroup: 3 });
    void writer.record(message('a'), delivered);
    void writer.record(message('b'), delivered);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(groups).toHaveLength(0);
    void writer.record(message('c'), delivered);
    await tick();
    expect(groups.map((group) => group.ids)).toEqual([['a', 'b', 'c']]);
    void writer.record(message('d'), delivered);
    await finishNext();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(groups).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(groups.map((group) => group.ids)).toEqual([['a', 'b', 'c'], ['d']]);
    await finishNext();
  });

  it('drain writes what is queued, young marks included', async () => {
    const { groups, write, finishNext } = controlledWrite();
    const writer = new OutcomeWriter(write, { now: () => 0 });
    writer.markDataSent('x');
    const drained = writer.drain();
    await finishNext();
    await drained;
    expect(groups).toEqual([{ ids: [], marks: ['x'] }]);
  });
});
