import mjml2html from 'mjml';
import { MAX_CONTENT_CHARS } from '@/lib/core/templates/schemas';
import { syntaxError } from '@/lib/core/templates/internal/check-template-syntax';
import { invalidInput } from '@/lib/shared/errors';
import { emptyBlocksDocument, type Block, type BlocksDocument } from './blocks-document';
import { documentMjml } from './blocks-mjml';
import { markdownLinkTargets, markdownToHtml } from './markdown-html';
import { RenderSlots } from './render-slots';
import { textFromHtml } from './text-part';

export type FormatSource = { format: 'markdown'; markdown: string } | { format: 'blocks'; blocks: BlocksDocument };
export type RenderedContent = { html: string; text: string };

/** The source field of each rendered format, as the API names it. */
export const SOURCE_FIELD = { markdown: 'markdown_content', blocks: 'blocks_content' } as const;

// Schemes a Markdown link may not use; relative links and anchors are the author's business, as in html_content.
const REFUSED_SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * Renders a Markdown or blocks source to responsive email HTML (MJML, CSS inlined) and its text part,
 * once per content: Jinja tags are held through rendering and left for each recipient's substitution.
 * A source that cannot be rendered is a 400 naming the field and the place.
 */
export async function renderContentFormat(source: FormatSource, options: { publicUrl: URL }): Promise<RenderedContent> {
  const field = SOURCE_FIELD[source.format];
  const slots = new RenderSlots();
  let mjml: string;
  if (source.format === 'markdown') {
    checkMarkdown(source.markdown);
    const body = slots.hold(markdownToHtml(slots.holdJinja(source.markdown), emptyBlocksDocument().styles));
    mjml = documentMjml(emptyBlocksDocument(), { slots, publicUrl: options.publicUrl }, body);
  } else {
    checkBlocks(source.blocks);
    mjml = documentMjml(source.blocks, { slots, publicUrl: options.publicUrl });
  }
  let held: string;
  try {
    held = (await mjml2html(mjml, { validationLevel: 'skip', ignoreIncludes: true, keepComments: false })).html;
  } catch (error) {
    throw invalidInput(`${field}: cannot be rendered: ${(error as Error).message}`, field);
  }
  const jinjaHeld = slots.restoreHtml(held);
  const html = slots.restore(jinjaHeld);
  if (html.length > MAX_CONTENT_CHARS)
    throw invalidInput(`${field}: renders to ${html.length} characters of HTML, more than ${MAX_CONTENT_CHARS}`, field);
  // Tags opened in one block and closed in another are only whole in the rendered HTML.
  const failure = syntaxError(html);
  if (failure) throw invalidInput(`${field}: template syntax error in the rendered HTML: ${failure}`, field);
  return { html, text: slots.restore(textFromHtml(jinjaHeld)) };
}

function checkMarkdown(markdown: string): void {
  const failure = syntaxError(markdown);
  if (failure) throw invalidInput(`markdown_content: template syntax error: ${failure}`, 'markdown_content');
  for (const { url, line } of markdownLinkTargets(markdown)) {
    const scheme = REFUSED_SCHEME.exec(url.replace(/[\u0000-\u0020]/g, ''))?.[1]?.toLowerCase();
    if (scheme && !ALLOWED_SCHEMES.has(scheme))
      throw invalidInput(`markdown_content: line ${line}: ${scheme}: URLs are not allowed`, 'markdown_content');
  }
}

/** Each block's text and URLs must compile on their own, so that an error names the block. */
function checkBlocks(document: BlocksDocument): void {
  const check = (block: Block, path: string) => {
    for (const [key, value] of Object.entries(block)) {
      const values = key === 'links' ? (value as { url: string }[]).map((link) => link.url) : [value];
      for (const text of values) {
        if (typeof text !== 'string' || key === 'id' || key === 'type') continue;
        const failure = syntaxError(text);
        if (failure)
          throw invalidInput(
            `blocks_content.${path}.${key}: block "${block.id}": template syntax error: ${failure}`,
            'blocks_content',
          );
      }
    }
  };
  document.blocks.forEach((block, index) => {
    check(block, `blocks.${index}`);
    if (block.type === 'columns')
      block.columns.forEach((column, c) =>
        column.forEach((child, i) => check(child, `blocks.${index}.columns.${c}.${i}`)),
      );
  });
}
