/**
 * The render case of `npm run bench`: a 100-block document (every block type, Jinja in text and
 * links) and a Markdown body of the same size rendered to email HTML (MJML, CSS inlined) with its
 * text part, in process, as a template or campaign save does. The target is under 50 ms for 100
 * blocks. No database: a campaign renders its content once when saved, never per recipient.
 */
import { blocksDocumentSchema, type BlocksDocumentInput } from '../lib/core/content/blocks-document';
import { renderContentFormat } from '../lib/core/content/render-content-format';
import { percentile } from './bench-support';

const RUNS = Number(process.env.BENCH_RENDER_RUNS ?? 50);
const WARM_UP = 5;
const TARGET_MS = 50;
const publicUrl = new URL('https://mail.example.com');

export type RenderResult = { name: string; p50: number; p99: number; htmlBytes: number };

function hundredBlocks(): BlocksDocumentInput {
  const kinds = [
    (i: number) => ({ id: `h${i}`, type: 'heading', level: 2, text: `Section ${i} for {{ first_name }}` }),
    (i: number) => ({
      id: `t${i}`,
      type: 'text',
      text: `Some **bold** and *italic* text, a [link](https://example.com/${i}?a=1&b=2) and {{ city }}.\nA second line.`,
    }),
    (i: number) => ({
      id: `i${i}`,
      type: 'image',
      src: `/media/picture-${i}.png`,
      alt: `Picture ${i}`,
      href: 'https://example.com',
    }),
    (i: number) => ({ id: `b${i}`, type: 'button', text: `Open ${i}`, href: '{{ offer_url }}' }),
    (i: number) => ({ id: `d${i}`, type: 'divider' }),
    (i: number) => ({
      id: `c${i}`,
      type: 'columns',
      columns: [[{ id: `c${i}l`, type: 'text', text: 'Left' }], [{ id: `c${i}r`, type: 'text', text: 'Right' }]],
    }),
    (i: number) => ({
      id: `s${i}`,
      type: 'social',
      links: [
        { network: 'x', url: 'https://x.com/example' },
        { network: 'website', url: 'https://example.com' },
      ],
    }),
    (i: number) => ({ id: `x${i}`, type: 'html', html: `<table><tr><td>Own HTML ${i}</td></tr></table>` }),
  ];
  const blocks: unknown[] = [];
  // A columns block counts 3 (itself and two children): stop at 100 blocks in all.
  for (let i = 0, count = 0; count < 100; i++) {
    const block = kinds[i % kinds.length](i) as { type: string };
    const size = block.type === 'columns' ? 3 : 1;
    if (count + size > 100) continue;
    blocks.push(block);
    count += size;
  }
  return { version: 1, blocks } as BlocksDocumentInput;
}

async function measure(name: string, render: () => Promise<{ html: string }>): Promise<RenderResult> {
  for (let i = 0; i < WARM_UP; i++) await render();
  const times: number[] = [];
  let htmlBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    htmlBytes = (await render()).html.length;
    times.push(performance.now() - start);
  }
  return { name, p50: percentile(times, 50), p99: percentile(times, 99), htmlBytes };
}

export async function runRenderBench(): Promise<RenderResult[]> {
  const document = blocksDocumentSchema.parse(hundredBlocks());
  const markdown = Array.from(
    { length: 50 },
    (_, i) => `## Section ${i} for {{ first_name }}\n\nSome **bold** text and a [link](https://example.com/${i}).\n`,
  ).join('\n');
  return [
    await measure('100 blocks', () => renderContentFormat({ format: 'blocks', blocks: document }, { publicUrl })),
    await measure('Markdown, 100 paragraphs and headings', () =>
      renderContentFormat({ format: 'markdown', markdown }, { publicUrl }),
    ),
  ];
}

export function printRenderResults(results: RenderResult[]): void {
  console.log(`\nrender (${RUNS} runs each, target under ${TARGET_MS} ms for 100 blocks)`);
  for (const result of results)
    console.log(
      `  ${result.name.padEnd(40)} p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  ${(result.htmlBytes / 1024).toFixed(0)} KB of HTML`,
    );
}
