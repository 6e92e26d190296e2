/**
 * Edits the visual editor makes to its document (lib/core/content/blocks-document.ts owns the schema):
 * new blocks with content that shows what they are, moves, counts.
 */
import {
  DEFAULT_STYLES,
  MAX_BLOCKS,
  type Block,
  type BlocksStyles,
  type BlockType,
  type LeafBlock,
} from '@/lib/core/content/blocks-document';

export { FONT_FAMILIES, SOCIAL_NETWORKS } from '@/lib/core/content/blocks-document';
export type { Block, BlockStyle, BlockType, LeafBlock } from '@/lib/core/content/blocks-document';
export { DEFAULT_STYLES as STYLE_DEFAULTS, MAX_BLOCKS };

/** Global styles as the editor holds them: unset ones take the renderer's defaults. */
export type GlobalStyles = Partial<BlocksStyles>;
export type BlocksDocument = { version: 1; styles: GlobalStyles; blocks: Block[] };

export const BLOCK_LABELS: Record<BlockType, string> = {
  heading: 'Heading',
  text: 'Text',
  image: 'Image',
  button: 'Button',
  divider: 'Divider',
  spacer: 'Spacer',
  columns: 'Columns',
  social: 'Social links',
  footer: 'Footer',
  html: 'HTML',
};
export const BLOCK_TYPES = Object.keys(BLOCK_LABELS) as BlockType[];

export const emptyDocument = (): BlocksDocument => ({ version: 1, styles: {}, blocks: [] });

function newId(): string {
  return `b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** A block of the type with content that shows what it is, so that an added block is visible at once. */
export function newBlock(type: BlockType): Block {
  const id = newId();
  switch (type) {
    case 'heading':
      return { id, type, text: 'A heading', level: 1 };
    case 'text':
      return { id, type, text: 'Write something here.' };
    case 'image':
      return { id, type, src: '', alt: '' };
    case 'button':
      return { id, type, text: 'Read more', href: 'https://example.com', style: { align: 'center' } };
    case 'divider':
      return { id, type };
    case 'spacer':
      return { id, type, height: 24 };
    case 'columns':
      return { id, type, columns: [[newLeaf('text')], [newLeaf('text')]] };
    case 'social':
      return { id, type, links: [{ network: 'website', url: 'https://example.com' }] };
    case 'footer':
      return { id, type, text: 'You receive this because you subscribed.' };
    case 'html':
      return { id, type, html: '<p>Your HTML</p>' };
  }
}

export const newLeaf = (type: Exclude<BlockType, 'columns'>) => newBlock(type) as LeafBlock;

export function countBlocks(blocks: Block[]): number {
  return blocks.reduce((sum, block) => sum + 1 + (block.type === 'columns' ? block.columns.flat().length : 0), 0);
}

export function moveItem<T>(items: T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/** The document as the editor holds it: a saved one, or an empty one when there is none or it is not a document. */
export function documentOf(value: unknown): BlocksDocument {
  const candidate = value as Partial<BlocksDocument> | null;
  if (!candidate || typeof candidate !== 'object' || !Array.isArray(candidate.blocks)) return emptyDocument();
  return { version: 1, styles: candidate.styles ?? {}, blocks: candidate.blocks };
}

/** Images without alt text, top level and in columns: what the editor flags before sending. */
export function imagesWithoutAlt(blocks: Block[]): string[] {
  return blocks
    .flatMap((block) => (block.type === 'columns' ? block.columns.flat() : [block]))
    .filter((block) => block.type === 'image' && !block.alt.trim())
    .map((block) => block.id);
}
