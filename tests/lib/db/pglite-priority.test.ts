import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prioritizedViews } from '@/lib/db/pglite-priority';

describe('prioritizedViews', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  afterAll(() => client.close());

  it('runs a waiting foreground statement before background ones queued earlier', async () => {
    const { foreground, background } = prioritizedViews(client);
    const order: string[] = [];
    const run = (view: PGlite, name: string, sql = 'select 1') => view.query(sql).then(() => order.push(name));
    // The first takes the gate; the others wait: three background, then one foreground.
    const started = [run(background, 'b0', 'select pg_sleep(0.05)'), run(background, 'b1'), run(background, 'b2'), run(background, 'b3'), run(foreground, 'f')];
    await Promise.all(started);
    expect(order).toEqual(['b0', 'f', 'b1', 'b2', 'b3']);
  });

  it('still gives the background a turn while the foreground keeps coming', async () => {
    const { foreground, background } = prioritizedViews(client);
    const order: string[] = [];
    const blocker = foreground.query('select pg_sleep(0.05)');
    const waiting = [background.query('select 1').then(() => order.push('b'))];
    for (let index = 0; index < 12; index++) waiting.push(foreground.query('select 1').then(() => order.push(`f${index}`)));
    await Promise.all([blocker, ...waiting]);
    // Eight waiting foreground statements go ahead of it, then the background's turn.
    expect(order.indexOf('b')).toBe(8);
    expect(order.filter((name) => name !== 'b')).toEqual(Array.from({ length: 12 }, (_, index) => `f${index}`));
  });

  it('holds the gate for a whole transaction, and a failed statement releases it', async () => {
    const { foreground, background } = prioritizedViews(client);
    await background.exec('create table if not exists gate_test (n int)');
    const order: string[] = [];
    const transaction = background.transaction(async (tx) => {
      await tx.query('insert into gate_test values (1)');
      await new Promise((resolve) => setTimeout(resolve, 30));
      await tx.query('insert into gate_test values (2)');
      order.push('transaction');
    });
    const read = foreground.query<{ count: number }>('select count(*)::int as count from gate_test').then((result) => {
      order.push('read');
      return result.rows[0].count;
    });
    await expect(background.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect(await read).toBe(2);
    await transaction;
    expect(order).toEqual(['transaction', 'read']);
    expect((await foreground.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
