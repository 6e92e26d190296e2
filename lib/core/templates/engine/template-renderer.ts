import { Worker } from 'node:worker_threads';
import type { RenderMode } from './sandboxed-interpreter';
import { TEMPLATE_LIMITS, type TemplateLimits } from './template-limits';

export type TemplateSource = { source: string; mode: RenderMode };
/** One output set: the listed templates rendered with one context (for a message: its parts, for its recipient). */
export type RenderJob = { templates: number[]; context: Record<string, unknown> };
export type RenderBatch = {
  templates: TemplateSource[];
  jobs: RenderJob[];
  /** Stop at the first failure (acceptance: one bad recipient refuses the send). */
  stopOnError?: boolean;
  /** Wall time for the whole batch, on top of each render's own limit. */
  budgetMs?: number;
};
/** `template` is the index of the template that failed, or null when the worker failed (or skipped the job). */
export type RenderFailure = { template: number | null; kind: 'syntax' | 'render' | 'skipped'; message: string };
export type RenderResult = { ok: true; outputs: string[] } | { ok: false; failure: RenderFailure };

export type WorkerReply =
  { ready: true } | { id: number; index: number; result: RenderResult } | { id: number; done: true };

/** Renders untrusted templates off the main thread. One per process (Services.renderer). */
export type TemplateRenderer = {
  render(batch: RenderBatch): Promise<RenderResult[]>;
  close(): Promise<void>;
};

export type TemplateRendererOptions = {
  /** Worker threads (default 2: one hostile batch never holds up every render). */
  workers?: number;
  limits?: TemplateLimits;
  /** Heap of each worker; a render that needs more ends that worker, not the process. */
  maxHeapMb?: number;
  /** A worker that answers no job for this long is stopped (the interpreter's own limits normally end a render long before). */
  stallMs?: number;
  logger?: { warn: (details: object, message: string) => void };
};

type Task = {
  batch: RenderBatch;
  results: (RenderResult | undefined)[];
  isRetry: boolean;
  resolve: (results: RenderResult[]) => void;
  reject: (error: Error) => void;
};
type PooledWorker = { thread: Worker; isReady: boolean; task: Task | null; timer: NodeJS.Timeout | null };

const WORKER_ENTRY = new URL('./render-worker.mjs', import.meta.url);
const STARTUP_MS = 60_000;

/**
 * A pool of worker threads with heap limits. The server's event loop never runs a template; a
 * render that exhausts its worker's heap or stops answering ends that worker only. The batch's jobs
 * that had no answer yet are then rendered again one by one, so that only the job that broke the
 * worker fails. Idle workers do not keep the process alive.
 */
export function createTemplateRenderer(options: TemplateRendererOptions = {}): TemplateRenderer {
  const size = options.workers ?? 2;
  const limits = options.limits ?? TEMPLATE_LIMITS;
  const maxHeapMb = options.maxHeapMb ?? 256;
  const stallMs = options.stallMs ?? 10_000;
  const queue: Task[] = [];
  const workers = new Set<PooledWorker>();
  let nextId = 1;
  let isClosed = false;

  const spawn = () => {
    const thread = new Worker(WORKER_ENTRY, {
      workerData: { limits },
      env: {}, // nothing of the server's environment inside the thread that runs templates
      execArgv: [], // nor the parent's flags (render-worker.mjs loads what it needs)
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    const pooled: PooledWorker = {
      thread,
      isReady: false,
      task: null,
      timer: setTimeout(() => retire(pooled, 'the template renderer did not start'), STARTUP_MS).unref(),
    };
    thread.unref();
    thread.on('message', (reply: WorkerReply) => onReply(pooled, reply));
    thread.on('error', (error: Error & { code?: string }) => {
      if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY')
        options.logger?.warn({ err: error }, 'template render worker failed');
      retire(
        pooled,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `rendering needed more than ${maxHeapMb} MB of memory`
          : 'the template renderer stopped unexpectedly',
      );
    });
    thread.on('exit', () => retire(pooled, 'the template renderer stopped unexpectedly'));
    workers.add(pooled);
  };

  const dispatch = () => {
    while (queue.length) {
      const idle = [...workers].find((pooled) => pooled.isReady && !pooled.task);
      if (!idle) {
        if (workers.size < size) spawn();
        return;
      }
      assign(idle, queue.shift()!);
    }
  };

  const watch = (pooled: PooledWorker) => {
    if (pooled.timer) clearTimeout(pooled.timer);
    pooled.timer = setTimeout(
      () => retire(pooled, `rendering took longer than ${Math.round(stallMs / 1000)} s`),
      stallMs,
    ).unref();
  };

  const assign = (pooled: PooledWorker, task: Task) => {
    pooled.task = task;
    pooled.thread.ref(); // a render in progress keeps the process alive, an idle worker does not
    watch(pooled);
    pooled.thread.postMessage({ ...task.batch, id: nextId++ });
  };

  const onReply = (pooled: PooledWorker, reply: WorkerReply) => {
    if ('ready' in reply) {
      pooled.isReady = true;
      if (pooled.timer) clearTimeout(pooled.timer);
      pooled.timer = null;
      return dispatch();
    }
    const task = pooled.task;
    if (!task) return;
    if ('index' in reply) {
      task.results[reply.index] = reply.result;
      return watch(pooled);
    }
    if (pooled.timer) clearTimeout(pooled.timer);
    pooled.timer = null;
    pooled.task = null;
    pooled.thread.unref();
    task.resolve(task.results as RenderResult[]);
    dispatch();
  };

  const retire = (pooled: PooledWorker, reason: string) => {
    if (!workers.delete(pooled)) return;
    if (pooled.timer) clearTimeout(pooled.timer);
    void pooled.thread.terminate();
    const task = pooled.task;
    pooled.task = null;
    if (task) recover(task, reason);
    else if (!pooled.isReady && !isClosed) {
      // A worker that cannot start will not start on the next try either.
      for (const waiting of queue.splice(0)) waiting.reject(new Error(`${reason}: no template can be rendered`));
    }
    if (!isClosed) dispatch();
  };

  /** After a worker died: the job that was running fails; the others of a batch are rendered again, alone. */
  const recover = (task: Task, reason: string) => {
    const missing = task.results.flatMap((result, index) => (result ? [] : [index]));
    if (missing.length === 0) return task.resolve(task.results as RenderResult[]);
    if (missing.length === 1 || task.isRetry || task.batch.stopOnError) {
      missing.forEach((index, position) => {
        task.results[index] = {
          ok: false,
          failure:
            position === 0
              ? { template: null, kind: 'render', message: reason }
              : { template: null, kind: 'skipped', message: 'not rendered after an earlier failure' },
        };
      });
      return task.resolve(task.results as RenderResult[]);
    }
    let pending = missing.length;
    for (const index of missing) {
      const settle = ([result]: RenderResult[]) => {
        const { templates } = task.batch.jobs[index];
        task.results[index] =
          result.ok || result.failure.template === null
            ? result
            : { ok: false, failure: { ...result.failure, template: templates[result.failure.template] } };
        if (--pending === 0) task.resolve(task.results as RenderResult[]);
      };
      queue.push({
        batch: singleJob(task.batch, index),
        results: [undefined],
        isRetry: true,
        resolve: settle,
        reject: task.reject,
      });
    }
  };

  return {
    render(batch) {
      if (isClosed) return Promise.reject(new Error('the template renderer is closed'));
      if (batch.jobs.length === 0) return Promise.resolve([]);
      return new Promise<RenderResult[]>((resolve, reject) => {
        queue.push({ batch, results: batch.jobs.map(() => undefined), isRetry: false, resolve, reject });
        dispatch();
      });
    },
    async close() {
      isClosed = true;
      const error = new Error('the template renderer is closed');
      for (const task of queue.splice(0)) task.reject(error);
      await Promise.all(
        [...workers].map((pooled) => {
          workers.delete(pooled);
          if (pooled.timer) clearTimeout(pooled.timer);
          pooled.task?.reject(error);
          return pooled.thread.terminate();
        }),
      );
    },
  };
}

/** One job of a batch as a batch of its own, with only the templates it uses. */
function singleJob(batch: RenderBatch, index: number): RenderBatch {
  const job = batch.jobs[index];
  return {
    templates: job.templates.map((template) => batch.templates[template]),
    jobs: [{ context: job.context, templates: job.templates.map((_, position) => position) }],
  };
}
