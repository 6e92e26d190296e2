import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATE_LIMITS } from '@/lib/core/templates/engine/template-limits';
import {
  createTemplateRenderer,
  type RenderBatch,
  type TemplateRenderer,
} from '@/lib/core/templates/engine/template-renderer';

/** Limits that let a render run long or grow large, to exercise what the worker threads add. */
const RELAXED = {
  ...TEMPLATE_LIMITS,
  maxSteps: 1e12,
  maxLoopItems: 1e9,
  maxIterations: 1e12,
  maxListItems: 1e9,
  minOutputChars: 1e9,
  timeMs: 1e9,
};
const HUGE_RANGE = '{% for i in range(100000000) %}xxxxxxxx{% endfor %}';

const renderers: TemplateRenderer[] = [];
const renderer = (options: Parameters<typeof createTemplateRenderer>[0] = {}) => {
  const created = createTemplateRenderer(options);
  renderers.push(created);
  return created;
};
afterAll(async () => {
  await Promise.all(renderers.map((created) => created.close()));
});

/** Resolves with the largest delay of a 10 ms timer on this (the main) thread while `work` runs. */
async function timerLagDuring(work: Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return worst;
}

describe('createTemplateRenderer', () => {
  it('renders jobs in worker threads: each job its templates with its context, HTML escaped in HTML mode', async () => {
    const batch: RenderBatch = {
      templates: [
        { source: 'Hi {{ name | title }}', mode: 'text' },
        { source: '<p>{{ name }}</p>', mode: 'html' },
        { source: '{{ oops ', mode: 'text' },
        { source: HUGE_RANGE, mode: 'text' },
      ],
      jobs: [
        { templates: [0, 1], context: { name: '<ada>' } },
        { templates: [0], context: { name: 'bob' } },
        { templates: [0, 2], context: {} },
        { templates: [3], context: {} },
      ],
    };
    expect(await renderer().render(batch)).toEqual([
      { ok: true, outputs: ['Hi <Ada>', '<p>&lt;ada&gt;</p>'] },
      { ok: true, outputs: ['Hi Bob'] },
      { ok: false, failure: { template: 2, kind: 'syntax', message: expect.stringMatching(/not closed/) } },
      { ok: false, failure: { template: 3, kind: 'render', message: 'range of 100000000 items (limit 10000)' } },
    ]);
  });

  it('with stopOnError, jobs after a failure are skipped', async () => {
    const results = await renderer().render({
      templates: [
        { source: '{{ x }}', mode: 'text' },
        { source: HUGE_RANGE, mode: 'text' },
      ],
      jobs: [
        { templates: [1], context: {} },
        { templates: [0], context: { x: 1 } },
      ],
      stopOnError: true,
    });
    expect(results.map((result) => (result.ok ? 'ok' : result.failure.kind))).toEqual(['render', 'skipped']);
  });

  it('the event loop stays responsive while a render runs: the hostile range is refused at once, and a long render never delays a timer', async () => {
    const pool = renderer({ limits: RELAXED, workers: 1 });
    await pool.render({ templates: [{ source: 'warm', mode: 'text' }], jobs: [{ templates: [0], context: {} }] });
    const quiet = await timerLagDuring(new Promise((resolve) => setTimeout(resolve, 1_000)));
    const started = performance.now();
    const long = pool.render({
      templates: [{ source: '{% for i in range(100000) %}{{ i }}{% endfor %}', mode: 'text' }],
      jobs: [{ templates: [0], context: {} }],
    });
    const during = await timerLagDuring(long);
    expect(performance.now() - started).toBeGreaterThan(300); // it was real work, done elsewhere
    // 100 ms, or more when the machine itself delays timers (a shared test machine): never the render's duration.
    expect(during).toBeLessThan(Math.max(100, 3 * quiet));
    const [refused] = await renderer().render({
      templates: [{ source: HUGE_RANGE, mode: 'text' }],
      jobs: [{ templates: [0], context: {} }],
    });
    expect(refused).toMatchObject({ ok: false, failure: { message: /range of 100000000 items/ } });
  }, 60_000);

  it('a render that exhausts its heap ends its worker only: the other jobs of the batch are rendered, and later batches too', async () => {
    const pool = renderer({ limits: RELAXED, maxHeapMb: 64, workers: 1 });
    const ok = (n: number) => ({ templates: [0], context: { n } });
    const batch: RenderBatch = {
      templates: [
        { source: 'ok {{ n }}', mode: 'text' },
        {
          source:
            '{% set ns = namespace(a=[1]) %}{% for i in range(40) %}{% set ns.a = ns.a + ns.a %}{% endfor %}{{ ns.a | length }}',
          mode: 'text',
        },
      ],
      jobs: [ok(1), { templates: [1], context: {} }, ok(2), ok(3)],
    };
    expect(await pool.render(batch)).toEqual([
      { ok: true, outputs: ['ok 1'] },
      { ok: false, failure: { template: null, kind: 'render', message: 'rendering needed more than 64 MB of memory' } },
      { ok: true, outputs: ['ok 2'] },
      { ok: true, outputs: ['ok 3'] },
    ]);
    expect(await pool.render({ templates: batch.templates, jobs: [ok(4)] })).toEqual([{ ok: true, outputs: ['ok 4'] }]);
  }, 60_000);

  it('a worker that stops answering is ended after stallMs, and only its job fails', async () => {
    const pool = renderer({ limits: RELAXED, stallMs: 2_000, workers: 1 });
    const results = await pool.render({
      templates: [
        { source: 'ok', mode: 'text' },
        { source: '{% for i in range(100000000) %}{% endfor %}', mode: 'text' },
      ],
      jobs: [
        { templates: [1], context: {} },
        { templates: [0], context: {} },
      ],
    });
    expect(results).toEqual([
      { ok: false, failure: { template: null, kind: 'render', message: 'rendering took longer than 2 s' } },
      { ok: true, outputs: ['ok'] },
    ]);
  }, 60_000);

  it('a closed renderer refuses work', async () => {
    const pool = createTemplateRenderer();
    await pool.close();
    await expect(
      pool.render({ templates: [{ source: 'x', mode: 'text' }], jobs: [{ templates: [0], context: {} }] }),
    ).rejects.toThrow(/closed/);
  });

  it('idle workers do not keep the process alive', () => {
    const script = `import { createTemplateRenderer } from './lib/core/templates/engine/template-renderer.ts';
      const [result] = await createTemplateRenderer().render({ templates: [{ source: 'Hi {{ n }}', mode: 'text' }], jobs: [{ templates: [0], context: { n: 'there' } }] });
      console.log(JSON.stringify(result));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../../../..'),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ ok: true, outputs: ['Hi there'] });
  }, 40_000);
});
