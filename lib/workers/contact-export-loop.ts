import type { Services } from '@/lib/core/context';
import { unsafeClaimContactExport } from '@/lib/core/contact-exports/claim-contact-export';
import type { ContactExportRow } from '@/lib/core/contact-exports/internal/present';
import { unsafeRunContactExport } from '@/lib/core/contact-exports/run-contact-export';
import { hostIdentity, isProcessAlive } from './liveness';
import { CONTACT_EXPORT_LEASES, unsafeReclaimDeadLeases, unsafeReleaseAllLeases } from './reclaim-leases';
import { startLoop, type RunningLoop } from './run-loop';
import { anyLoop, type LoopRow, type WorkerContext, type WorkerSettings } from './worker-context';

/** Tuning of the export loop; CONTACT_EXPORT_PAGE_ROWS and tests shrink it. */
export type ContactExportLoopSettings = Required<NonNullable<WorkerSettings['contactExports']>>;

export const DEFAULT_EXPORT_SETTINGS: ContactExportLoopSettings = {
  pollMs: 1000,
  // Renewed with every page (a page takes well under a second); a killed worker's export is freed sooner by its heartbeat.
  leaseMs: 60_000,
  // Measured on PostgreSQL, 1,000,000 contacts: 1,000 kept the peak lower than 5,000 for 2 s more (docs/benchmarks.md).
  pageRows: 1000,
  maxAttempts: 5,
};

/**
 * The contact export loop: one export at a time per process (each reads the database as fast as it
 * can write the file), run to its end or to a stop. A killed process's export is started again
 * elsewhere, from its first row, as soon as the process is known to be gone.
 */
export const contactExportLoop = {
  name: 'contact exports',
  define: ({ services, workerId }: WorkerContext, { contactExports }: Pick<WorkerSettings, 'contactExports'>) => {
    const { db, logger } = services;
    const settings = { ...DEFAULT_EXPORT_SETTINGS, ...contactExports };
    const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };
    return anyLoop<ContactExportRow>({
      name: 'contact exports',
      capacity: 1,
      pollMs: settings.pollMs,
      wakeOn: 'contact-exports',
      async claim() {
        const job = await unsafeClaimContactExport(db, { workerId, leaseMs: settings.leaseMs, now: services.now() });
        return job ? [job] : [];
      },
      async run(job, loop) {
        const started = performance.now();
        const outcome = await unsafeRunContactExport(services, job, {
          workerId,
          ...settings,
          isStopping: loop.isStopping,
        });
        logger.info(
          { exportId: job.id, accountId: job.accountId, outcome, ms: Math.round(performance.now() - started) },
          'contact export run ended',
        );
      },
      reclaim: {
        what: 'contact exports',
        releaseAll: () => unsafeReleaseAllLeases(db, CONTACT_EXPORT_LEASES),
        reclaimDead: async () => (await unsafeReclaimDeadLeases(db, observer, CONTACT_EXPORT_LEASES)).freed,
      },
    });
  },
} satisfies LoopRow;

/** The export loop alone, under a worker id registered elsewhere (the benchmark runs it in its own process). */
export async function startContactExportWorker(
  services: Services,
  options: { workerId: string; isOnlyProcess: boolean; settings?: WorkerSettings['contactExports'] },
): Promise<RunningLoop> {
  const { workerId, isOnlyProcess } = options;
  const worker: WorkerContext = { services, workerId, isOnlyProcess, database: isOnlyProcess ? 'pglite' : 'postgres' };
  return startLoop(contactExportLoop.define(worker, { contactExports: options.settings }), {
    logger: services.logger,
    isOnlyProcess,
  });
}
