import { documentOf, type BlocksDocument } from './blocks-editing';

export const CONTENT_FORMATS = [
  { name: 'blocks', label: 'Visual', source: 'blocks_content' },
  { name: 'markdown', label: 'Markdown', source: 'markdown_content' },
  { name: 'html', label: 'HTML', source: 'html_content' },
] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number]['name'];

/** A body as the editor holds it: the format it is written in and each format's source. */
export type ContentValue = {
  format: ContentFormat;
  html_content: string;
  markdown_content: string;
  blocks_content: BlocksDocument;
};

type Saved = {
  format?: string | null;
  html_content?: string | null;
  markdown_content?: string | null;
  blocks_content?: unknown;
};

export function contentValueOf(saved: Saved): ContentValue {
  const format = CONTENT_FORMATS.find((candidate) => candidate.name === saved.format)?.name ?? 'html';
  return {
    format,
    // In the other formats html_content is the server's rendering, not something to edit.
    html_content: format === 'html' ? (saved.html_content ?? '') : '',
    markdown_content: saved.markdown_content ?? '',
    blocks_content: documentOf(saved.blocks_content),
  };
}

/** Whether the body in its format has anything in it: switching an empty one needs no confirmation. */
export function hasContent(value: ContentValue): boolean {
  if (value.format === 'blocks') return value.blocks_content.blocks.length > 0;
  return Boolean((value.format === 'html' ? value.html_content : value.markdown_content).trim());
}

/** The API's fields for the body: the format and its source only, since the others do not apply. */
export function contentBodyOf(value: ContentValue) {
  if (value.format === 'markdown') return { format: value.format, markdown_content: value.markdown_content || null };
  if (value.format === 'blocks') return { format: value.format, blocks_content: value.blocks_content };
  return { format: value.format, html_content: value.html_content || null };
}

export type SourceError = { field: string; line: number | null; message: string };

/**
 * An API error about the body (`markdown_content: template syntax error: ... (line 3)`): its field,
 * the line it names and the message without the field, so the editor can put it on its line.
 */
export function sourceErrorOf(message: string, field: string | null): SourceError | null {
  const match = /^([a-z_]+)(?:[.\w\[\]"]*)?: ([\s\S]*)$/.exec(message);
  const named = field ?? match?.[1] ?? null;
  if (!named || !['html_content', 'markdown_content', 'blocks_content'].includes(named.split('.')[0])) return null;
  const line = /\bline (\d+)/.exec(message)?.[1];
  return { field: named.split('.')[0], line: line ? Number(line) : null, message: match ? match[2] : message };
}
