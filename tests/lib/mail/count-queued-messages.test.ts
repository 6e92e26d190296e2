import { describe, expect, it } from 'vitest';
import { messages } from '@/lib/db/schema';
import { unsafeCountQueuedMessages } from '@/lib/mail/count-queued-messages';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

describe('unsafeCountQueuedMessages', () => {
  it('counts waiting messages by state, leaves finished ones out, and finds when the longest-waiting due one became due', async () => {
    const db = await openMemoryDatabase();
    const now = new Date('2026-11-23T10:00:00Z');
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    expect(await unsafeCountQueuedMessages(db, now)).toEqual({
      counts: { queued: 0, deferred: 0, scheduled: 0 },
      oldestDueAt: null,
    });
    await db
      .insert(messages)
      .values([
        queuedMessage(null, { status: 'queued', nextAttemptAt: at(-5) }),
        queuedMessage('worker-1', { status: 'queued', nextAttemptAt: at(-30) }),
        queuedMessage(null, { status: 'deferred', nextAttemptAt: at(-90) }),
        queuedMessage(null, { status: 'deferred', nextAttemptAt: at(600) }),
        queuedMessage(null, { status: 'scheduled', nextAttemptAt: at(3600) }),
        queuedMessage(null, { status: 'delivered', nextAttemptAt: null }),
        queuedMessage(null, { status: 'bounced', nextAttemptAt: at(-9999) }),
      ]);
    expect(await unsafeCountQueuedMessages(db, now)).toEqual({
      counts: { queued: 2, deferred: 2, scheduled: 1 },
      oldestDueAt: at(-90),
    });
  }, 120_000);
});
