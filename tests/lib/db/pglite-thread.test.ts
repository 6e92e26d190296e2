import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgliteThread, type PgliteThread } from '@/lib/db/open-pglite-thread';
import { hasPostgresCode } from '@/lib/core/contacts/internal/postgres-error';

describe('the embedded database on its own thread', () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await openPgliteThread(null);
  });
  afterAll(() => thread.close());

  it('runs a waiting foreground statement before background ones queued earlier', async () => {
    const { foreground, background } = thread;
    const order: string[] = [];
    const run = (view: PGlite, name: string, sql = 'select 1') => view.query(sql).then(() => order.push(name));
    // The first takes the gate; the others wait: three background, then one foreground.
    const started = [
      run(background, 'b0', 'select pg_sleep(0.05)'),
      run(background, 'b1'),
      run(background, 'b2'),
      run(background, 'b3'),
      run(foreground, 'f'),
    ];
    await Promise.all(started);
    expect(order).toEqual(['b0', 'f', 'b1', 'b2', 'b3']);
  });

  it('still gives the background a turn while the foreground keeps coming', async () => {
    const { foreground, background } = thread;
    const order: string[] = [];
    const blocker = foreground.query('select pg_sleep(0.05)');
    const waiting = [background.query('select 1').then(() => order.push('b'))];
    for (let index = 0; index < 12; index++)
      waiting.push(foreground.query('select 1').then(() => order.push(`f${index}`)));
    await Promise.all([blocker, ...waiting]);
    // Eight waiting foreground statements go ahead of it, then the background's turn.
    expect(order.indexOf('b')).toBe(8);
    expect(order.filter((name) => name !== 'b')).toEqual(Array.from({ length: 12 }, (_, index) => `f${index}`));
  });

  it('holds the gate for a whole transaction, and a failed statement releases it', async () => {
    const { foreground, background } = thread;
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

  it('rolls a transaction back when its work throws, and keeps nothing of it', async () => {
    const { foreground } = thread;
    await foreground.exec('create table rollback_test (n int)');
    const failing = foreground.transaction(async (tx) => {
      await tx.query('insert into rollback_test values (1)');
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    expect(
      (await foreground.query<{ count: number }>('select count(*)::int as count from rollback_test')).rows[0].count,
    ).toBe(0);
  });

  it('keeps the SQLSTATE of an error, which the verbs read (a duplicate is a 409, not a 500)', async () => {
    const { foreground } = thread;
    await foreground.exec('create table unique_test (n int primary key)');
    await foreground.query('insert into unique_test values (1)');
    const error = await foreground.query('insert into unique_test values (1)').catch((caught: unknown) => caught);
    expect(hasPostgresCode(error, '23505')).toBe(true);
    expect(error).toMatchObject({ constraint: 'unique_test_pkey', table: 'unique_test' });
  });

  it('returns bytea as Buffers, and takes them as parameters', async () => {
    const { foreground } = thread;
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    const result = await foreground.query<{ data: Buffer }>('select $1::bytea as data', [bytes]);
    expect(Buffer.isBuffer(result.rows[0].data)).toBe(true);
    expect(result.rows[0].data.equals(bytes)).toBe(true);
  });

  it('fails a statement whose parameter cannot cross to the thread, and goes on serving', async () => {
    const { foreground } = thread;
    await expect(foreground.query('select $1::text as value', [() => 'a function'])).rejects.toThrow(
      /could not be cloned/,
    );
    expect((await foreground.query('select $1::text as value', ['next'])).rows).toEqual([{ value: 'next' }]);
  });

  it('refuses statements once closed, naming why', async () => {
    const other = await openPgliteThread(null);
    await other.close();
    await expect(other.foreground.query('select 1')).rejects.toThrow(/embedded database is closed/);
  });
});
