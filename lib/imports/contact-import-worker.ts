import type { Services } from '@/lib/core/context';
import { unsafeClaimContactImport, unsafePurgeAbandonedUploads, unsafeReclaimDeadImportLeases, unsafeReleaseAllImportLeases } from '@/lib/core/contact-imports/claim-contact-import';
import { onContactImportQueued } from '@/lib/core/contact-imports/import-signal';
import { unsafeRunContactImport } from '@/lib/core/contact-imports/run-contact-import';
import { hostIdentity, isProcessAlive, isWorkerDead, startLeaseReclaim } from '@/lib/mail/worker-liveness';

/** Tuning of the import loop; tests shrink it. */
export type ContactImportWorkerSettings = { pollMs: number; leaseMs: number; batchRows: number; maxAttempts: number };

export const DEFAULT_IMPORT_SETTINGS: ContactImportWorkerSettings = {
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
 * The worker role's contact import loop: claim one import at a time (they are CPU-bound; other
 * processes take other imports), run it to its end or to a stop, repeat; sleep when none is due.
 * It runs under the delivery worker's id, whose heartbeat other processes watch, so a killed
 * process's import is resumed elsewhere as soon as it is known to be gone.
 */
export async function startContactImportWorker(
  services: Services,
  options: { workerId: string; isOnlyProcess: boolean; settings?: Partial<ContactImportWorkerSettings> },
): Promise<{ stop: () => Promise<void> }> {
  const { db, logger } = services;
  const settings = { ...DEFAULT_IMPORT_SETTINGS, ...options.settings };
  const { workerId } = options;
  const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };

  const stopReclaim = await startLeaseReclaim({
    isOnlyProcess: options.isOnlyProcess,
    releaseAll: () => unsafeReleaseAllImportLeases(db),
    reclaimDead: () => unsafeReclaimDeadImportLeases(db, (worker) => isWorkerDead(worker, observer)),
    what: 'contact imports',
    logger,
  });
  // The embedded database has one process: an upload a previous one was receiving is dead too.
  if (options.isOnlyProcess) await unsafePurgeAbandonedUploads(db, { olderThan: services.now() });

  let isStopping = false;
  let wake: (() => void) | null = null;
  const stopListening = onContactImportQueued(() => wake?.());
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms);
    });
  let lastPurge = 0;

  const loop = (async () => {
    while (!isStopping) {
      try {
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await unsafePurgeAbandonedUploads(db, { olderThan: new Date(services.now().getTime() - ABANDONED_UPLOAD_MS) });
        }
        const job = await unsafeClaimContactImport(db, { workerId, leaseMs: settings.leaseMs, now: services.now() });
        if (!job) {
          await sleep(settings.pollMs);
          wake = null;
          continue;
        }
        const started = performance.now();
        const outcome = await unsafeRunContactImport(services, job, { workerId, ...settings, isStopping: () => isStopping });
        logger.info({ importId: job.id, accountId: job.accountId, outcome, ms: Math.round(performance.now() - started) }, 'contact import run ended');
      } catch (error) {
        logger.error({ err: error }, 'claiming a contact import failed');
        await sleep(settings.pollMs);
      }
    }
  })();

  return {
    async stop() {
      isStopping = true;
      wake?.();
      stopListening();
      await loop;
      await stopReclaim();
    },
  };
}
