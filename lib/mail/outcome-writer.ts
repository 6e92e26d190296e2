import type { ClaimedMessage } from './claim-due-messages';
import type { Outcome } from './outcome';

export type RecordedOutcome = { message: ClaimedMessage; outcome: Outcome };

/** Writes one group in one transaction: outcomes, and the "DATA sent" marks (ids) that go with it. */
export type WriteGroup = (outcomes: RecordedOutcome[], dataSentIds: string[]) => Promise<void>;

type Pending = RecordedOutcome & { resolve: () => void; reject: (error: unknown) => void };

// A mark whose reply is that close is usually written with its outcome, in the same statement.
const MARK_WAIT_MS = 5;
const RETRY_DELAYS_MS = [50, 250, 1000];

/**
 * Group commit: one write at a time takes every outcome queued meanwhile, after gathering up to
 * `delayMs` unless `fullGroup` are already waiting. A failed write is retried (the lease guard makes
 * a retry after a commit whose reply was lost a no-op) before its callers fail.
 */
export class OutcomeWriter {
  private queue: Pending[] = [];
  private readonly marks = new Map<string, number>();
  private isWriting = false;
  private markTimer: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  private isDraining = false;
  private endGathering: (() => void) | null = null;

  constructor(
    private readonly write: WriteGroup,
    private readonly options: {
      delayMs?: number;
      fullGroup?: number;
      now?: () => number;
      onError?: (error: unknown, outcomes: number) => void;
    } = {},
  ) {}

  /** Resolves once the outcome is committed; rejects if it could not be written. */
  record(message: ClaimedMessage, outcome: Outcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, outcome, resolve, reject });
      if (this.queue.length >= (this.options.fullGroup ?? Infinity)) this.endGathering?.();
      this.start();
    });
  }

  /** The message's data went out and its reply is awaited: a crash now may leave a duplicate. */
  markDataSent(messageId: string): void {
    this.marks.set(messageId, this.clock());
    this.armMarkTimer();
  }

  /** Writes everything still queued, marks included, and resolves when that is done. */
  drain(): Promise<void> {
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = null;
    if (!this.isWriting && this.queue.length === 0 && this.marks.size === 0) return Promise.resolve();
    this.isDraining = true;
    this.endGathering?.();
    const drained = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.start();
    return drained;
  }

  private clock(): number {
    return this.options.now?.() ?? Date.now();
  }

  private armMarkTimer(): void {
    this.markTimer ??= setTimeout(() => {
      this.markTimer = null;
      this.start();
    }, MARK_WAIT_MS);
  }

  private start(): void {
    if (this.isWriting) return;
    this.isWriting = true;
    void this.run();
  }

  private async run(): Promise<void> {
    for (let isFirst = true; ; isFirst = false) {
      await this.gather(isFirst);
      const group = this.queue;
      this.queue = [];
      const dataSentIds = this.takeMarks(new Set(group.map(({ message }) => message.id)));
      if (group.length === 0 && dataSentIds.length === 0) break;
      try {
        await this.writeWithRetries(group, dataSentIds);
        for (const pending of group) pending.resolve();
      } catch (error) {
        this.options.onError?.(error, group.length);
        for (const pending of group) pending.reject(error);
      }
    }
    // Checked and cleared in one synchronous step: a record() after this starts a new run.
    this.isWriting = false;
    this.isDraining = false;
    if (this.marks.size > 0) this.armMarkTimer();
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Callers of the same moment always share a write; with delayMs, those of the next moments too. */
  private async gather(isFirst: boolean): Promise<void> {
    const { delayMs, fullGroup = Infinity } = this.options;
    if (!delayMs || this.isDraining || this.queue.length >= fullGroup)
      return isFirst ? new Promise((resolve) => setImmediate(resolve)) : undefined;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      this.endGathering = () => (clearTimeout(timer), resolve());
    });
    this.endGathering = null;
  }

  /** Marks of this group's messages, and marks old enough that their reply is clearly slow. */
  private takeMarks(groupIds: Set<string>): string[] {
    const now = this.clock();
    const taken: string[] = [];
    for (const [id, at] of this.marks) {
      if (this.isDraining || groupIds.has(id) || now - at >= MARK_WAIT_MS) {
        taken.push(id);
        this.marks.delete(id);
      }
    }
    return taken;
  }

  private async writeWithRetries(group: Pending[], dataSentIds: string[]): Promise<void> {
    const outcomes = group.map(({ message, outcome }) => ({ message, outcome }));
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.write(outcomes, dataSentIds);
      } catch (error) {
        if (attempt >= RETRY_DELAYS_MS.length) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}
