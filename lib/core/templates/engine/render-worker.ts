import { parentPort, workerData } from 'node:worker_threads';
import { yieldToEventLoop } from '@/lib/shared/thread-priority';
import { compileTemplate, type CompiledTemplate } from './compile-template';
import { renderTemplate } from './render-template';
import type { Deadline } from './sandboxed-interpreter';
import { TemplateError, type TemplateLimits } from './template-limits';
import type { RenderBatch, RenderResult, WorkerReply } from './template-renderer';

/**
 * A render worker thread (started by template-renderer.ts through render-worker.mjs): renders the
 * batches it is sent, one at a time, answering each job as soon as it is done so that the main
 * thread knows which job was running if this thread has to be stopped.
 */
const limits = (workerData as { limits: TemplateLimits }).limits;
yieldToEventLoop();
const CACHE_CHARS = 32_000_000;
const cache = new Map<string, CompiledTemplate | TemplateError>();
let cachedChars = 0;

function compiled(source: string): CompiledTemplate | TemplateError {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source); // most recently used last
    cache.set(source, hit);
    return hit;
  }
  let template: CompiledTemplate | TemplateError;
  try {
    template = compileTemplate(source, limits);
  } catch (error) {
    template = error as TemplateError;
  }
  cache.set(source, template);
  cachedChars += source.length;
  for (const [oldest] of cache) {
    if (cachedChars <= CACHE_CHARS || oldest === source) break;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
  return template;
}

function renderJob(batch: RenderBatch, job: RenderBatch['jobs'][number], deadline: Deadline | undefined): RenderResult {
  const outputs: string[] = [];
  if (deadline && performance.now() > deadline.at)
    return { ok: false, failure: { template: job.templates[0] ?? null, kind: 'render', message: deadline.reason } };
  for (const index of job.templates) {
    const { source, mode } = batch.templates[index];
    const template = compiled(source);
    if (template instanceof TemplateError)
      return { ok: false, failure: { template: index, kind: 'syntax', message: template.message } };
    try {
      outputs.push(renderTemplate(template, job.context, mode, { limits, deadline }));
    } catch (error) {
      return { ok: false, failure: { template: index, kind: 'render', message: (error as Error).message } };
    }
  }
  return { ok: true, outputs };
}

parentPort!.on('message', (batch: RenderBatch & { id: number }) => {
  const deadline = batch.budgetMs
    ? {
        at: performance.now() + batch.budgetMs,
        reason: `rendering for every recipient took longer than ${batch.budgetMs} ms`,
      }
    : undefined;
  let hasFailed = false;
  batch.jobs.forEach((job, index) => {
    const result: RenderResult =
      hasFailed && batch.stopOnError
        ? { ok: false, failure: { template: null, kind: 'skipped', message: 'not rendered after an earlier failure' } }
        : renderJob(batch, job, deadline);
    hasFailed ||= !result.ok;
    parentPort!.postMessage({ id: batch.id, index, result } satisfies WorkerReply);
  });
  parentPort!.postMessage({ id: batch.id, done: true } satisfies WorkerReply);
});

parentPort!.postMessage({ ready: true } satisfies WorkerReply);
