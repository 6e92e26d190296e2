import type { CoreConfig } from '@/lib/core/config';
import { AppError, invalidInput } from '@/lib/shared/errors';
import type { BlocksDocument } from './blocks-document';
import { syntaxError } from '@/lib/core/templates/internal/check-template-syntax';
import { renderContentFormat, SOURCE_FIELD, type FormatSource } from './render-content-format';
import { RenderSlots } from './render-slots';
import { textFromHtml } from './text-part';
import type { ContentFormat, ContentFormatInput } from './schemas';

/** The stored content of a template draft or a campaign, as its columns are named. */
export type ContentColumns = {
  format: ContentFormat;
  htmlContent: string | null;
  textContent: string | null;
  markdownContent: string | null;
  blocksContent: unknown;
  textGenerated: boolean;
  preheader: string | null;
};

export const EMPTY_CONTENT: ContentColumns = {
  format: 'html',
  htmlContent: null,
  textContent: null,
  markdownContent: null,
  blocksContent: null,
  textGenerated: false,
  preheader: null,
};

const touchesContent = (input: ContentFormatInput) =>
  input.format !== undefined ||
  input.html_content !== undefined ||
  input.text_content !== undefined ||
  input.markdown_content !== undefined ||
  input.blocks_content !== undefined;

/**
 * The content columns a write sets: omitted fields stay, null or "" clears. With markdown or blocks,
 * html_content is rendered from the source here, once; in every format text_content is made from the
 * HTML unless the author gave one. The source of another format than the one in force is refused.
 */
export async function contentColumns(
  input: ContentFormatInput,
  current: ContentColumns,
  config: Pick<CoreConfig, 'publicUrl'>,
): Promise<Partial<ContentColumns>> {
  const preheader = input.preheader !== undefined ? { preheader: checkedPreheader(input.preheader) } : {};
  if (!touchesContent(input)) return preheader;
  const format = input.format ?? (current.format as ContentFormat);
  refuseOtherSources(input, format);
  const rendered = format === 'html' ? htmlBody(input, current) : await renderedBody(input, current, format, config);

  const ownText =
    input.text_content !== undefined
      ? input.text_content || null
      : current.textGenerated || format !== current.format
        ? null
        : current.textContent;
  return {
    ...preheader,
    format,
    markdownContent: format === 'markdown' ? (rendered.source as string | null) : null,
    blocksContent: format === 'blocks' ? rendered.source : null,
    htmlContent: rendered.html,
    textContent: ownText ?? rendered.text,
    textGenerated: ownText === null && rendered.text !== null,
  };
}

type Body = { source: unknown; html: string | null; text: string | null };

/** The author's HTML as written, and the text a reader of it would read (Jinja held through the converter). */
function htmlBody(input: ContentFormatInput, current: ContentColumns): Body {
  const html = input.html_content !== undefined ? input.html_content || null : current.htmlContent;
  if (!html) return { source: null, html, text: null };
  const slots = new RenderSlots();
  const text = slots.restore(textFromHtml(slots.holdJinja(html)));
  return { source: null, html, text: text || null };
}

async function renderedBody(
  input: ContentFormatInput,
  current: ContentColumns,
  format: 'markdown' | 'blocks',
  config: Pick<CoreConfig, 'publicUrl'>,
): Promise<Body> {
  const field = SOURCE_FIELD[format];
  const given = format === 'markdown' ? input.markdown_content : input.blocks_content;
  if (format !== current.format && given === undefined)
    throw invalidInput(`${field}: is required when format changes to ${format}`, field);
  const source =
    given !== undefined ? given || null : format === 'markdown' ? current.markdownContent : current.blocksContent;
  if (!source) return { source, html: null, text: null };
  const rendered = await renderOrRefuse(field, () =>
    renderContentFormat(sourceOf(format, source), { publicUrl: config.publicUrl }),
  );
  return { source, ...rendered };
}

// Checked here as well as by the verbs' syntax check: the campaign design checks its inline parts only.
function checkedPreheader(preheader: string | null): string | null {
  const failure = preheader ? syntaxError(preheader) : null;
  if (failure) throw invalidInput(`preheader: template syntax error: ${failure}`, 'preheader');
  return preheader?.trim() || null;
}

function sourceOf(format: 'markdown' | 'blocks', source: unknown): FormatSource {
  return format === 'markdown' ? { format, markdown: source as string } : { format, blocks: source as BlocksDocument };
}

function refuseOtherSources(input: ContentFormatInput, format: ContentFormat): void {
  if (format !== 'html' && input.html_content)
    throw invalidInput(
      `html_content: is rendered from ${SOURCE_FIELD[format]} with format ${format}; leave it out`,
      'html_content',
    );
  if (format !== 'markdown' && input.markdown_content)
    throw invalidInput(`markdown_content: needs format markdown (the format is ${format})`, 'markdown_content');
  if (format !== 'blocks' && input.blocks_content)
    throw invalidInput(`blocks_content: needs format blocks (the format is ${format})`, 'blocks_content');
}

/**
 * A source the renderers cannot take (Markdown nested deeper than the parser recurses, say) is the
 * author's to fix: a 400 naming the field, never a 500. The renderers' own refusals pass as they are.
 */
async function renderOrRefuse<T>(field: string, render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalidInput(
      `${field}: could not be rendered (${error instanceof Error ? error.message : String(error)})`,
      field,
    );
  }
}
