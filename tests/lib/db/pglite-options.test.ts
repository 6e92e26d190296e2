import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLITE_SHARED_BUFFERS, pgliteOptions } from '@/lib/db/pglite-options';

describe('PGlite as Mailstead opens it', () => {
  let client: PGlite;

  // Starting PGlite takes seconds, more on a busy machine.
  beforeAll(async () => {
    client = await PGlite.create(pgliteOptions());
    await client.exec('create table pieces (id int primary key, data bytea)');
  }, 120_000);

  afterAll(async () => {
    await client.close();
  });

  it('bytea round-trips byte for byte, a view into a larger buffer included', async () => {
    const backing = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7) % 256));
    const cases = [Buffer.alloc(0), Buffer.from([0, 255, 16, 1]), backing.subarray(3, 262_147)];
    for (const [id, data] of cases.entries())
      await client.query('insert into pieces (id, data) values ($1, $2)', [id, data]);
    const { rows } = await client.query<{ id: number; data: Uint8Array }>('select id, data from pieces order by id');
    expect(rows.map((row) => Buffer.from(row.data).equals(cases[row.id]))).toEqual([true, true, true]);
    expect(
      (await client.query<{ length: number }>('select length(data) as length from pieces where id = 2')).rows[0].length,
    ).toBe(262_144);
  });

  it('bytea is read as the server stores it (hex text), not reinterpreted', async () => {
    const { rows } = await client.query<{ data: Uint8Array }>(`select '\\x00ff10'::bytea as data`);
    expect([...rows[0].data]).toEqual([0, 255, 16]);
  });

  it(`runs with a ${PGLITE_SHARED_BUFFERS} buffer pool`, async () => {
    const { rows } = await client.query<{ shared_buffers: string }>('show shared_buffers');
    expect(rows[0].shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
  });
});
