import type { MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';

export type PacingState = {
  /** `gmail`, `microsoft`, `yahoo`, `apple`; `domain:<name>` for any other destination; `relay`. */
  key: string;
  concurrency: number;
  normalConcurrency: number;
  slowedSince: Date | null;
  throttledReplies: number;
  lastThrottledAt: Date | null;
  /** The least time between two messages' starts, once one connection is still too many; 0 when unpaced. */
  spacingMs: number;
};

type Entry = PacingState & { acceptedSinceRaise: number; lastHalvedAt: number; writtenAt: number; isDirty: boolean };

// Replies to messages already in flight when a provider first says "slow down" are one signal, not several.
const HALVE_AT_MOST_EVERY_MS = 1000;
// A slowed provider's row is rewritten this often even without change, so readers can tell it is current.
const REWRITE_SLOWED_EVERY_MS = 15_000;
// At one connection a provider that still throttles is sent at most one message per spacing: first
// this, doubled at each further throttling (at most once a second), up to the maximum.
export const FIRST_SPACING_MS = 1000;
export const MAX_SPACING_MS = 30_000;
// A destination too small to send `raiseAfterAccepted` messages would stay slowed for ever: after
// this long without a throttling reply it is back to normal, and then forgotten.
export const RECOVER_AFTER_QUIET_MS = 10 * 60_000;

/**
 * How many connections each provider gets from this process, and how fast it is sent to, with the
 * feedback Postfix applies per destination (AIMD): a throttling reply halves the connections (floor
 * 1); at one connection, further throttling spaces the messages out instead (1 s, doubled, up to
 * 30 s between starts). Every `raiseAfterAccepted` accepted messages undo one step, the spacing
 * first (halved, then none), then one connection at a time, back to normal. State is per process,
 * not shared: each process sees the replies to its own connections, and halving its own share
 * lowers the sum as much as a shared counter would, without a database round trip per reply.
 * Readers sum the rows each process writes (write-provider-pacing.ts); nothing is kept for a
 * destination that never throttled.
 */
export class ProviderPacing {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { normalConcurrency: number; raiseAfterAccepted: number }) {}

  static keyFor(provider: MailboxProvider | null, recipientDomain: string): string {
    if (provider === null) return 'relay';
    return provider === 'other' ? `domain:${recipientDomain}` : provider;
  }

  /** The connections a destination may use now: the normal number unless it throttled. */
  limit(key: string): number {
    return this.entries.get(key)?.concurrency ?? this.options.normalConcurrency;
  }

  /** The least time between the starts of two messages to a destination: 0 unless it throttled at one connection. */
  spacing(key: string): number {
    return this.entries.get(key)?.spacingMs ?? 0;
  }

  throttled(key: string, now: Date): void {
    const entry = this.entries.get(key) ?? this.create(key);
    entry.throttledReplies++;
    entry.lastThrottledAt = now;
    entry.acceptedSinceRaise = 0;
    entry.isDirty = true;
    if (now.getTime() - entry.lastHalvedAt < HALVE_AT_MOST_EVERY_MS) return;
    entry.lastHalvedAt = now.getTime();
    if (entry.concurrency === 1)
      entry.spacingMs = entry.spacingMs ? Math.min(MAX_SPACING_MS, entry.spacingMs * 2) : FIRST_SPACING_MS;
    entry.concurrency = Math.max(1, Math.floor(entry.concurrency / 2));
    entry.slowedSince ??= now;
  }

  /** Called for every accepted message: one map lookup when nothing is slowed. */
  accepted(key: string): void {
    const entry = this.entries.get(key);
    if (!entry?.slowedSince) return;
    if (++entry.acceptedSinceRaise < this.options.raiseAfterAccepted) return;
    entry.acceptedSinceRaise = 0;
    if (entry.spacingMs > 0) entry.spacingMs = entry.spacingMs >= 2 * FIRST_SPACING_MS ? entry.spacingMs / 2 : 0;
    else entry.concurrency = Math.min(entry.normalConcurrency, entry.concurrency + 1);
    if (entry.concurrency === entry.normalConcurrency && entry.spacingMs === 0) entry.slowedSince = null;
    entry.isDirty = true;
  }

  states(): PacingState[] {
    return [...this.entries.values()].map(present);
  }

  /** The states to write now: changed ones, and slowed ones not written for a while. */
  takeChanged(now: number): PacingState[] {
    for (const [key, entry] of this.entries) {
      if (now - (entry.lastThrottledAt?.getTime() ?? 0) < RECOVER_AFTER_QUIET_MS) continue;
      if (entry.slowedSince) {
        entry.concurrency = entry.normalConcurrency;
        entry.spacingMs = 0;
        entry.slowedSince = null;
        entry.acceptedSinceRaise = 0;
        entry.isDirty = true;
      } else if (!entry.isDirty) this.entries.delete(key); // its normal state was written last time
    }
    const due = [...this.entries.values()].filter(
      (entry) => entry.isDirty || (entry.slowedSince && now - entry.writtenAt >= REWRITE_SLOWED_EVERY_MS),
    );
    for (const entry of due) {
      entry.isDirty = false;
      entry.writtenAt = now;
    }
    return due.map(present);
  }

  private create(key: string): Entry {
    const normal = this.options.normalConcurrency;
    const entry: Entry = {
      key,
      concurrency: normal,
      normalConcurrency: normal,
      slowedSince: null,
      throttledReplies: 0,
      lastThrottledAt: null,
      spacingMs: 0,
      acceptedSinceRaise: 0,
      lastHalvedAt: 0,
      writtenAt: 0,
      isDirty: true,
    };
    this.entries.set(key, entry);
    return entry;
  }
}

function present(entry: Entry): PacingState {
  const { key, concurrency, normalConcurrency, slowedSince, throttledReplies, lastThrottledAt, spacingMs } = entry;
  return { key, concurrency, normalConcurrency, slowedSince, throttledReplies, lastThrottledAt, spacingMs };
}
