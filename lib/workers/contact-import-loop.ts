import type { Services } from '@/lib/core/context';
import { unsafeClaimContactImport, unsafePurgeAbandonedUploads } from '@/lib/core/contact-imports/claim-contact-import';
import type { ContactImportRow } from '@/lib/core/contact-imports/internal/present';
import { unsafeRunContactImport } from '@/lib/core/contact-imports/run-contact-import';
import { hostIdentity, isProcessAlive } from './liveness';
import { CONTACT_IMPORT_LEASES, unsafeReclaimDeadLeases, unsafeReleaseAllLeases } from './reclaim-leases';
import { startLoop, type RunningLoop } from './run-loop';
import { anyLoop, type LoopRow, type WorkerContext, type WorkerSettings } from './worker-context';

/** Tuning of the import loop; tests shrink it. */
export type ContactImportLoopSettings = Required<NonNullable<WorkerSettings['contactImports']>>;

export const DEFAULT_IMPORT_SETTINGS: ContactImportLoopSettings = {
  pollMs: 1000,
  // Renewed every third of it while the import runs; a killed worker's import is freed sooner by its heartbeat.
  leaseMs: 60_000,
  // Measured on PGlite, 100,000 rows: 1,000 took as long as 2,000 and the process peaked 50 MB lower.
  batchRows: 1000,
  maxAttempts: 5,
};

const PURGE_EVERY_MS = 60_000;
const ABANDONED_UPLOAD_MS = 60 * 60 * 1000;

/**
 * The contact import loop: one import at a time (they are CPU-bound; other processes take other
 * imports), run to its end or to a stop; sleep when none is due. A killed process's import is
 * resumed elsewhere as soon as the process is known to be gone.
 */
export const contactImportLoop = {
  name: 'contact imports',
  define: async (
    { services, workerId, isOnlyProcess }: WorkerContext,
    { contactImports }: Pick<WorkerSettings, 'contactImports'>,
  ) => {
    const { db, logger } = services;
    const settings = { ...DEFAULT_IMPORT_SETTINGS, ...contactImports };
    const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };
    // The embedded database has one process: an upload a previous one was receiving is dead too.
    if (isOnlyProcess) await unsafePurgeAbandonedUploads(db, { olderThan: services.now() });
    let lastPurge = 0;
    return anyLoop<ContactImportRow>({
      name: 'contact imports',
      capacity: 1,
      pollMs: settings.pollMs,
      wakeOn: 'contact-imports',
      async claim() {
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await unsafePurgeAbandonedUploads(db, {
            olderThan: new Date(services.now().getTime() - ABANDONED_UPLOAD_MS),
          });
        }
        const job = await unsafeClaimContactImport(db, { workerId, leaseMs: settings.leaseMs, now: services.now() });
        return job ? [job] : [];
      },
      async run(job, loop) {
        const started = performance.now();
        const outcome = await unsafeRunContactImport(services, job, {
          workerId,
          ...settings,
          isStopping: loop.isStopping,
        });
        logger.info(
          { importId: job.id, accountId: job.accountId, outcome, ms: Math.round(performance.now() - started) },
          'contact import run ended',
        );
      },
      reclaim: {
        what: 'contact imports',
        releaseAll: () => unsafeReleaseAllLeases(db, CONTACT_IMPORT_LEASES),
        reclaimDead: async () => (await unsafeReclaimDeadLeases(db, observer, CONTACT_IMPORT_LEASES)).freed,
      },
    });
  },
} satisfies LoopRow;

/** The import loop alone, under a worker id registered elsewhere (specs run two in one process). */
export async function startContactImportWorker(
  services: Services,
  options: { workerId: string; isOnlyProcess: boolean; settings?: WorkerSettings['contactImports'] },
): Promise<RunningLoop> {
  const { workerId, isOnlyProcess } = options;
  const worker: WorkerContext = { services, workerId, isOnlyProcess, database: isOnlyProcess ? 'pglite' : 'postgres' };
  return startLoop(await contactImportLoop.define(worker, { contactImports: options.settings }), {
    logger: services.logger,
    isOnlyProcess,
  });
}
