import { unsafeClaimSegmentRecounts } from '@/lib/core/segments/claim-segment-recounts';
import type { SegmentRow } from '@/lib/core/segments/internal/compile-segment-filter';
import { unsafeRecountSegment } from '@/lib/core/segments/recount-segment';
import { anyLoop, type LoopRow, type WorkerContext, type WorkerSettings } from './worker-context';

/** Tuning of the recount loop; SEGMENT_RECOUNT_SECONDS and tests shrink it. */
export const DEFAULT_SEGMENT_RECOUNT_SETTINGS: Required<NonNullable<WorkerSettings['segmentRecounts']>> = {
  // A count older than this is counted again: 0.3-0.8 s a segment at 1,000,000 contacts on PostgreSQL.
  staleSeconds: 900,
  pollMs: 5000,
  leaseMs: 5 * 60 * 1000,
};

/**
 * The segment recount loop: keeps each segment's stored count (what GET /segments shows) no older
 * than `staleSeconds`, one segment at a time per process so that counts never crowd out sending.
 */
export const segmentRecountLoop = {
  name: 'segment recounts',
  define: ({ services }: WorkerContext, { segmentRecounts }: Pick<WorkerSettings, 'segmentRecounts'>) => {
    const settings = { ...DEFAULT_SEGMENT_RECOUNT_SETTINGS, ...segmentRecounts };
    return anyLoop<SegmentRow>({
      name: 'segment recounts',
      capacity: 1,
      pollMs: settings.pollMs,
      claim: (free) => {
        const now = services.now();
        return unsafeClaimSegmentRecounts(services.db, {
          limit: free,
          leaseMs: settings.leaseMs,
          now,
          staleBefore: new Date(now.getTime() - settings.staleSeconds * 1000),
        });
      },
      async run(segment) {
        await unsafeRecountSegment(services, segment);
      },
    });
  },
} satisfies LoopRow;
