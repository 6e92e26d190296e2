import { Marked, Renderer, type RendererObject, type Tokens } from 'marked';
import type { BlocksStyles } from './blocks-document';

/**
 * Markdown to HTML with the document's styles inlined on each element marked writes (mail clients
 * ignore most <style>), so no CSS inliner has to run over the result. Raw HTML in a Markdown body is
 * kept as html_content is; in a block's inline Markdown it is shown as text.
 */

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Method = 'paragraph' | 'heading' | 'blockquote' | 'code' | 'codespan' | 'hr' | 'list' | 'link' | 'image' | 'table';

/** The default renderer's output with a style on its first tag. */
function styled<T>(method: Method, style: (token: T) => string) {
  return function (this: Renderer, token: T): string {
    const html = (Renderer.prototype[method] as (token: T) => string).call(this, token);
    return html.replace(/^<([a-z0-9]+)/, `<$1 style="${style(token)}"`);
  };
}

function headingSize(styles: BlocksStyles, depth: number): number {
  return Math.round(styles.fontSize * ([2, 1.5, 1.25, 1.125, 1, 0.875][depth - 1] ?? 1));
}

function stylingRenderer(styles: BlocksStyles): RendererObject {
  const link = `color:${styles.linkColor};text-decoration:underline`;
  return {
    paragraph: styled('paragraph', () => 'margin:0 0 16px'),
    heading: styled(
      'heading',
      (token: Tokens.Heading) =>
        `margin:24px 0 12px;font-size:${headingSize(styles, token.depth)}px;line-height:1.25;font-weight:700`,
    ),
    blockquote: styled('blockquote', () => 'margin:0 0 16px;padding:0 0 0 16px;border-left:4px solid #e4e4e7'),
    code: styled(
      'code',
      () => 'margin:0 0 16px;padding:12px;background:#f4f4f5;font-family:monospace;font-size:14px;white-space:pre-wrap',
    ),
    codespan: styled('codespan', () => 'padding:0 4px;background:#f4f4f5;font-family:monospace'),
    hr: styled('hr', () => 'border:0;border-top:1px solid #e4e4e7;margin:24px 0'),
    list: styled('list', () => 'margin:0 0 16px;padding:0 0 0 24px'),
    link: styled('link', () => link),
    image: styled('image', () => 'max-width:100%;height:auto;border:0'),
    table: styled('table', () => 'border-collapse:collapse;margin:0 0 16px'),
  };
}

/** A whole Markdown body: paragraphs, headings, lists, quotes, code, tables, links and images. */
export function markdownToHtml(markdown: string, styles: BlocksStyles): string {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({ renderer: stylingRenderer(styles) });
  return marked.parse(markdown, { async: false });
}

/** A block's text: inline Markdown (bold, italic, links) and line breaks; HTML is shown as typed. */
export function inlineMarkdownToHtml(markdown: string, styles: BlocksStyles): string {
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({ renderer: { ...stylingRenderer(styles), html: ({ text }) => escapeHtml(text) } });
  return marked.parseInline(markdown, { async: false });
}

/** Link and image targets of a Markdown body, with the line each is on. */
export function markdownLinkTargets(markdown: string): { url: string; line: number }[] {
  const found: { url: string; raw: string }[] = [];
  const marked = new Marked({ gfm: true, async: false });
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') found.push({ url: token.href, raw: token.raw });
  });
  let from = 0;
  return found.map(({ url, raw }) => {
    const at = markdown.indexOf(raw, from);
    if (at !== -1) from = at;
    return { url, line: markdown.slice(0, Math.max(at, 0)).split('\n').length };
  });
}

export { escapeHtml };
