import { z } from '@/lib/core/zod';

/**
 * The visual editor's document (`blocks_content`), shared by the API, the renderer and the dashboard's editor.
 * URLs are checked on the whole document so that a refusal can name the block: `block "hero": href ...`.
 */

export const MAX_BLOCKS = 200;
export const BLOCK_TYPES = [
  'heading',
  'text',
  'image',
  'button',
  'divider',
  'spacer',
  'columns',
  'social',
  'footer',
  'html',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const FONT_FAMILIES = [
  'sans-serif',
  'serif',
  'monospace',
  'Arial',
  'Helvetica',
  'Georgia',
  'Verdana',
  'Trebuchet MS',
] as const;
export const SOCIAL_NETWORKS = ['facebook', 'x', 'instagram', 'linkedin', 'youtube', 'website'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export const DEFAULT_STYLES = {
  width: 600,
  backgroundColor: '#f4f4f5',
  contentColor: '#ffffff',
  textColor: '#18181b',
  linkColor: '#2563eb',
  fontFamily: 'Arial',
  fontSize: 16,
} as const;

const colorSchema = z
  .string({ error: 'must be a colour like #1a2b3c' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c');
const intSchema = (min: number, max: number) =>
  z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
const textSchema = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`);

export const stylesSchema = z
  .object({
    width: intSchema(480, 800).default(DEFAULT_STYLES.width),
    backgroundColor: colorSchema.default(DEFAULT_STYLES.backgroundColor),
    contentColor: colorSchema.default(DEFAULT_STYLES.contentColor),
    textColor: colorSchema.default(DEFAULT_STYLES.textColor),
    linkColor: colorSchema.default(DEFAULT_STYLES.linkColor),
    fontFamily: z
      .enum(FONT_FAMILIES, { error: `must be one of ${FONT_FAMILIES.join(', ')}` })
      .default(DEFAULT_STYLES.fontFamily),
    fontSize: intSchema(12, 24).default(DEFAULT_STYLES.fontSize),
  })
  .openapi({ description: 'Global styles; every one is optional and has a default.' });

export const blockStyleSchema = z.object({
  align: z.enum(['left', 'center', 'right'], { error: 'must be left, center or right' }).optional(),
  padding: intSchema(0, 64).optional(),
  backgroundColor: colorSchema.optional(),
  color: colorSchema.optional(),
  fontSize: intSchema(10, 48).optional(),
});

const blockBase = {
  id: z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _'),
  style: blockStyleSchema.optional(),
};

const headingBlockSchema = z.object({
  ...blockBase,
  type: z.literal('heading'),
  text: textSchema(500),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1, 2 or 3' }),
});
const textBlockSchema = z.object({ ...blockBase, type: z.literal('text'), text: textSchema(20_000) });
const imageBlockSchema = z.object({
  ...blockBase,
  type: z.literal('image'),
  src: textSchema(2048).min(1, 'must not be empty'),
  alt: textSchema(300),
  href: textSchema(2048).optional(),
  width: intSchema(16, 800).optional(),
});
const buttonBlockSchema = z.object({
  ...blockBase,
  type: z.literal('button'),
  text: textSchema(200),
  href: textSchema(2048).min(1, 'must not be empty'),
  backgroundColor: colorSchema.optional(),
  color: colorSchema.optional(),
});
const dividerBlockSchema = z.object({
  ...blockBase,
  type: z.literal('divider'),
  color: colorSchema.optional(),
  thickness: intSchema(1, 8).optional(),
});
const spacerBlockSchema = z.object({ ...blockBase, type: z.literal('spacer'), height: intSchema(4, 200) });
const socialBlockSchema = z.object({
  ...blockBase,
  type: z.literal('social'),
  links: z
    .array(
      z.object({
        network: z.enum(SOCIAL_NETWORKS, { error: `must be one of ${SOCIAL_NETWORKS.join(', ')}` }),
        url: textSchema(2048).min(1, 'must not be empty'),
      }),
      { error: 'must be an array' },
    )
    .max(8, 'must hold at most 8 links'),
});
const footerBlockSchema = z.object({ ...blockBase, type: z.literal('footer'), text: textSchema(2000) });
const htmlBlockSchema = z.object({ ...blockBase, type: z.literal('html'), html: textSchema(50_000) });

const blockTypeError = { error: `must be one of ${BLOCK_TYPES.join(', ')}` };
/** Any block but columns: what a column may hold. */
export const leafBlockSchema = z.discriminatedUnion(
  'type',
  [
    headingBlockSchema,
    textBlockSchema,
    imageBlockSchema,
    buttonBlockSchema,
    dividerBlockSchema,
    spacerBlockSchema,
    socialBlockSchema,
    footerBlockSchema,
    htmlBlockSchema,
  ],
  blockTypeError,
);
const columnsBlockSchema = z.object({
  ...blockBase,
  type: z.literal('columns'),
  columns: z
    .array(z.array(leafBlockSchema, { error: 'must be an array of blocks' }).max(MAX_BLOCKS), {
      error: 'must be an array of 2 or 3 columns',
    })
    .min(2, 'must hold 2 or 3 columns')
    .max(3, 'must hold 2 or 3 columns'),
});
export const blockSchema = z.discriminatedUnion(
  'type',
  [...leafBlockSchema.options, columnsBlockSchema],
  blockTypeError,
);

export type LeafBlock = z.output<typeof leafBlockSchema>;
export type ColumnsBlock = z.output<typeof columnsBlockSchema>;
export type Block = z.output<typeof blockSchema>;
export type BlockStyle = z.output<typeof blockStyleSchema>;
export type BlocksStyles = z.output<typeof stylesSchema>;

// An allow-list, so that `JaVa\tScript:` and friends fail as surely as `javascript:`.
const SAFE_URL = /^(https?:\/\/\S+|mailto:\S+|\/media\/\S*|\{\{[^{}]*\}\}\S*)$/i;
/** Why a URL is refused, or undefined when it may be used: http(s), mailto:, a /media/ path or a Jinja placeholder. */
export function unsafeUrlReason(url: string): string | undefined {
  if (SAFE_URL.test(url)) return undefined;
  const scheme = /^\s*([a-z][a-z0-9+.\-\s]*):/i.exec(url)?.[1]?.replace(/\s/g, '').toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https' && scheme !== 'mailto')
    return `${scheme}: URLs are not allowed`;
  return 'must be an http(s) or mailto: URL, a /media/ path or a Jinja placeholder';
}

/** The targets of inline Markdown links and images (`[text](url)`), as written. */
export function inlineLinkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(\s*<?((?:\{\{[^}]*\}\}|[^)\s>])*)/g)].map((match) => match[1]);
}

type UrlField = { path: (string | number)[]; url: string };
function urlFieldsOf(block: Block): UrlField[] {
  switch (block.type) {
    case 'image':
      return [
        { path: ['src'], url: block.src },
        ...(block.href === undefined ? [] : [{ path: ['href'], url: block.href }]),
      ];
    case 'button':
      return [{ path: ['href'], url: block.href }];
    case 'social':
      return block.links.map((link, index) => ({ path: ['links', index, 'url'], url: link.url }));
    case 'text':
    case 'footer':
      return inlineLinkTargets(block.text).map((url) => ({ path: ['text'], url }));
    default:
      return [];
  }
}

export const blocksDocumentSchema = z
  .object({
    version: z.literal(1, { error: 'must be 1' }),
    styles: stylesSchema.default(() => stylesSchema.parse({})),
    blocks: z
      .array(blockSchema, { error: 'must be an array of blocks' })
      .max(MAX_BLOCKS, `must hold at most ${MAX_BLOCKS} blocks`),
  })
  .superRefine((document, ctx) => {
    const seen = new Set<string>();
    let count = 0;
    const check = (block: Block, path: (string | number)[]) => {
      count += 1;
      if (seen.has(block.id))
        ctx.addIssue({ code: 'custom', path: [...path, 'id'], message: `block id "${block.id}" is used twice` });
      seen.add(block.id);
      for (const field of urlFieldsOf(block)) {
        const reason = unsafeUrlReason(field.url);
        if (reason)
          ctx.addIssue({ code: 'custom', path: [...path, ...field.path], message: `block "${block.id}": ${reason}` });
      }
    };
    document.blocks.forEach((block, index) => {
      check(block, ['blocks', index]);
      if (block.type === 'columns') {
        block.columns.forEach((column, c) =>
          column.forEach((child, i) => check(child, ['blocks', index, 'columns', c, i])),
        );
      }
    });
    if (count > MAX_BLOCKS) {
      ctx.addIssue({
        code: 'custom',
        path: ['blocks'],
        message: `must hold at most ${MAX_BLOCKS} blocks, columns' children counted (has ${count})`,
      });
    }
  })
  .openapi('BlocksDocument', {
    description:
      "The visual editor's document: `version` 1, global `styles`, and up to 200 `blocks` (heading, text, image, button, divider, spacer, columns, social, footer, html). Link and image URLs must be http(s), mailto:, a /media/ path or a Jinja placeholder.",
  });

export type BlocksDocument = z.output<typeof blocksDocumentSchema>;
export type BlocksDocumentInput = z.input<typeof blocksDocumentSchema>;

/** An empty document with the default styles: the layout Markdown is rendered into. */
export const emptyBlocksDocument = (): BlocksDocument => ({ version: 1, styles: { ...DEFAULT_STYLES }, blocks: [] });
