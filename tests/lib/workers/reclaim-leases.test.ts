import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { messages, workers } from '@/lib/db/schema';
import { unsafeReclaimAllLeases, unsafeReclaimDeadLeases } from '@/lib/workers/reclaim-leases';
import { STALE_AFTER_MS, type Observer } from '@/lib/workers/liveness';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

const HERE = 'box pid:[1]';
const observer = (alive: number[]): Observer => ({
  workerId: 'me',
  host: HERE,
  pid: 100,
  isProcessAlive: (pid) => alive.includes(pid),
});

describe('reclaiming leases (in-memory PGlite)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMemoryDatabase();
  }, 60_000);

  const leased = (lockedBy: string | null) => queuedMessage(lockedBy);
  const register = (id: string, pid: number, hostname = HERE, silentSeconds = 0) =>
    db.insert(workers).values({
      id,
      hostname,
      pid,
      startedAt: new Date(),
      heartbeatAt: sql`now() - make_interval(secs => ${silentSeconds})`,
    });
  const holders = async () =>
    (await db.select({ lockedBy: messages.lockedBy }).from(messages)).map((row) => row.lockedBy).sort();

  it('frees the messages of dead, silent and unregistered workers, and keeps those of live ones', async () => {
    await db.delete(messages);
    await db.delete(workers);
    await register('me', 100);
    await register('alive', 200);
    await register('dead-pid', 300);
    await register('elsewhere', 300, 'other pid:[1]');
    await register('silent', 400, 'other pid:[1]', STALE_AFTER_MS / 1000 + 5);
    await db
      .insert(messages)
      .values(['me', 'alive', 'dead-pid', 'elsewhere', 'silent', 'old-version:1:delivery', null].map(leased));

    const result = await unsafeReclaimDeadLeases(db, observer([100, 200]));
    expect(result.deadWorkers.sort()).toEqual(['dead-pid', 'silent']);
    expect(result.freed).toBe(3);
    expect(await holders()).toEqual(['alive', 'elsewhere', 'me', null, null, null, null]);
    expect((await db.select({ id: workers.id }).from(workers)).map((row) => row.id).sort()).toEqual([
      'alive',
      'elsewhere',
      'me',
    ]);
    const [freed] = await db.select().from(messages).where(eq(messages.lockedBy, 'alive'));
    expect(freed.leaseUntil).not.toBeNull();
  });

  it('the embedded database frees every lease at start but its own', async () => {
    await db.delete(messages);
    await db.delete(workers);
    await register('me', 100);
    await register('before', 100);
    await db.insert(messages).values(['before', 'before', null].map(leased));
    expect(await unsafeReclaimAllLeases(db, 'me')).toEqual({ freed: 2 });
    expect(await holders()).toEqual([null, null, null]);
    expect((await db.select({ id: workers.id }).from(workers)).map((row) => row.id)).toEqual(['me']);
  });
});
