import { sql } from 'drizzle-orm';
import { utcDay } from '@/lib/core/domains/internal/warmup-plan';
import type { Db } from '@/lib/db/client';
import type { ClaimedMessage } from './claim-due-messages';
import type { WarmupHold } from './warmup-gate';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Messages a warm-up plan held stay queued until the next UTC day: the lease is given back, no
 * attempt is counted, and the reason is appended to the message's delivery log (status `held`).
 * Expiry and retention move with the hold, so a held message keeps the time to leave it had.
 * Each day's held count goes to the warm-up counters, in the same transaction. Unsafe: it releases
 * messages of any account; only the delivery loop calls it, on its own claims.
 */
export async function unsafeHoldWarmupMessages(
  db: Db,
  held: { message: ClaimedMessage; hold: WarmupHold }[],
  options: { workerId: string; now: Date },
): Promise<void> {
  if (held.length === 0) return;
  const { workerId, now } = options;
  const at = now.toISOString();
  const ids = held.map(({ message }) => message.id);
  const untils = held.map(({ hold }) => hold.until.toISOString());
  const attempts = held.map(({ hold }) => JSON.stringify({ time: at, log: hold.log, status: 'held' }));
  await db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      update messages as m set
        next_attempt_at = u.until,
        expires_at = m.expires_at + greatest(interval '0', u.until - ${at}::timestamptz),
        retain_until = m.retain_until + greatest(interval '0', u.until - ${at}::timestamptz),
        lease_until = null, locked_by = null,
        delivery_attempts = m.delivery_attempts || jsonb_build_array(u.attempt::jsonb),
        updated_at = ${at}::timestamptz
      from unnest(${sql.param(ids)}::uuid[], ${sql.param(untils)}::timestamptz[], ${sql.param(attempts)}::text[])
        as u(id, until, attempt)
      where m.id = u.id and m.locked_by = ${workerId}
      returning m.id`);
    const written = new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
    const counts = new Map<string, { domainId: string; provider: string; held: number }>();
    for (const { message, hold } of held) {
      if (!written.has(message.id)) continue;
      const key = `${hold.counterId}|${hold.provider}`;
      const entry = counts.get(key) ?? { domainId: hold.counterId, provider: hold.provider, held: 0 };
      entry.held++;
      counts.set(key, entry);
    }
    const day = utcDay(now);
    for (const entry of counts.values()) {
      await tx.execute(sql`
        insert into warmup_counters (domain_id, provider, day, held, updated_at)
        values (${entry.domainId}, ${entry.provider}, ${day}, ${entry.held}, ${at}::timestamptz)
        on conflict (domain_id, provider, day) do update
          set held = warmup_counters.held + excluded.held, updated_at = excluded.updated_at`);
    }
  });
}
