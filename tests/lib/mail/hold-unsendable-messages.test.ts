import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { accounts, messages, users } from '@/lib/db/schema';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { HOLD_MS, unsafeHoldUnsendableMessages } from '@/lib/mail/hold-unsendable-messages';
import { releaseHeldMessages } from '@/lib/core/messages/internal/release-held-messages';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

/** Mail of an account that may not send waits in the queue, lease given back, no attempt counted. */
describe('holding the mail of suspended accounts (in-memory PGlite)', () => {
  let db: Db;
  const ids: Record<'active' | 'suspended' | 'parentSuspended' | 'deleted', string> = {
    active: '',
    suspended: '',
    parentSuspended: '',
    deleted: '',
  };
  beforeAll(async () => {
    db = await openMemoryDatabase();
    const [owner] = await db.insert(users).values({ email: 'owner@hold.example', passwordHash: 'x' }).returning();
    const statuses = {
      active: 'active',
      suspended: 'suspended',
      parentSuspended: 'parent-suspended',
      deleted: 'deleted',
    } as const;
    for (const [key, status] of Object.entries(statuses) as [keyof typeof ids, string][]) {
      const [row] = await db.insert(accounts).values({ ownerId: owner.id, name: key, status }).returning();
      ids[key] = row.id;
    }
  }, 60_000);

  it('passes on the mail of active (and unknown) accounts and holds the rest until HOLD_MS from now, unless expired', async () => {
    await db.delete(messages);
    // A second ahead: the rows below are due from the moment they are made.
    const now = new Date(Date.now() + 1000);
    const expired = queuedMessage(null, {
      accountId: ids.suspended,
      nextAttemptAt: new Date(now.getTime() - 1000),
      expiresAt: new Date(now.getTime() - 1),
    });
    const rows = [
      queuedMessage(null, { accountId: ids.active }),
      queuedMessage(null, { accountId: ids.suspended }),
      queuedMessage(null, { accountId: ids.parentSuspended }),
      queuedMessage(null, { accountId: ids.deleted }),
      queuedMessage(null, { accountId: '00000000-0000-4000-8000-0000000000ff' }),
      expired,
    ];
    await db.insert(messages).values(rows);
    const claimed = await unsafeClaimDueMessages(db, { workerId: 'w1', limit: 10, leaseMs: 60_000, now });
    expect(claimed).toHaveLength(6);

    const deliverable = await unsafeHoldUnsendableMessages(db, claimed, { workerId: 'w1', now });
    expect(deliverable.map((message) => message.id).sort()).toEqual([rows[0].id, rows[4].id, expired.id].sort());
    const [held] = await db.select().from(messages).where(eq(messages.id, rows[1].id!));
    expect(held).toMatchObject({ lockedBy: null, leaseUntil: null, attempts: 0, status: 'queued' });
    expect(held.nextAttemptAt?.getTime()).toBe(now.getTime() + HOLD_MS);
    // Not due again until the hold is over.
    expect(
      await unsafeClaimDueMessages(db, {
        workerId: 'w2',
        limit: 10,
        leaseMs: 60_000,
        now: new Date(now.getTime() + 1000),
      }),
    ).toEqual([]);
  });

  it('lets held mail leave at once when its account is active again, and only held mail of that account and its active children', async () => {
    await db.delete(messages);
    const now = new Date(Date.now() + 1000);
    const [child] = await db
      .insert(accounts)
      .values({
        ownerId: (await db.select().from(users))[0].id,
        name: 'child',
        status: 'parent-suspended',
        parentAccountId: ids.suspended,
      })
      .returning();
    const rows = [
      queuedMessage(null, { accountId: ids.suspended }),
      queuedMessage(null, { accountId: child.id }),
      queuedMessage(null, { accountId: ids.parentSuspended }),
    ];
    await db.insert(messages).values(rows);
    const claimed = await unsafeClaimDueMessages(db, { workerId: 'w1', limit: 10, leaseMs: 60_000, now });
    expect(await unsafeHoldUnsendableMessages(db, claimed, { workerId: 'w1', now })).toEqual([]);
    // A retry waiting out its backoff is not held mail: it keeps its time.
    const retry = queuedMessage(null, {
      accountId: ids.suspended,
      status: 'deferred',
      nextAttemptAt: new Date(now.getTime() + 60_000),
    });
    await db.insert(messages).values(retry);

    await db.update(accounts).set({ status: 'active' }).where(eq(accounts.id, ids.suspended));
    await db.update(accounts).set({ status: 'active' }).where(eq(accounts.id, child.id));
    await releaseHeldMessages(db, ids.suspended, now);
    const due = await unsafeClaimDueMessages(db, { workerId: 'w2', limit: 10, leaseMs: 60_000, now });
    expect(due.map((message) => message.id).sort()).toEqual([rows[0].id, rows[1].id].sort());
    const [stillWaiting] = await db.select().from(messages).where(eq(messages.id, retry.id!));
    expect(stillWaiting.nextAttemptAt?.getTime()).toBe(now.getTime() + 60_000);
    await db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, ids.suspended));
  });
});
