import { inArray } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';
import type { DeliveryRow } from './present';

const POLL_MS = 100;

/** The deliveries once each had its attempt, or as they are when the time is up (in request order); for "trigger". */
export async function waitForAttempts(db: Db, ids: string[], timeoutMs: number): Promise<DeliveryRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    const isDone = rows.every((row) => row.status === 'delivered' || row.status === 'failed');
    if (isDone || Date.now() >= deadline)
      return ids.map((id) => rows.find((row) => row.id === id)).filter((row): row is DeliveryRow => row !== undefined);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
