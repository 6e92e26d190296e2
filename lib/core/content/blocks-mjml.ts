import type { Block, BlocksDocument, BlocksStyles, BlockStyle, LeafBlock, SocialNetwork } from './blocks-document';
import { escapeHtml, inlineMarkdownToHtml } from './markdown-html';
import type { RenderSlots } from './render-slots';
import { socialIconPath } from './social-icons';

/**
 * A blocks document as MJML, which MJML turns into responsive, Outlook-safe HTML. Every value an
 * author wrote reaches MJML either escaped in an attribute or held in a slot (see RenderSlots), so
 * nothing in a block can open or close an MJML tag.
 */

const FONT_STACKS: Record<BlocksStyles['fontFamily'], string> = {
  'sans-serif': 'Helvetica, Arial, sans-serif',
  serif: 'Georgia, Times New Roman, serif',
  monospace: 'Menlo, Consolas, monospace',
  Arial: 'Arial, Helvetica, sans-serif',
  Helvetica: 'Helvetica, Arial, sans-serif',
  Georgia: 'Georgia, serif',
  Verdana: 'Verdana, Geneva, sans-serif',
  'Trebuchet MS': 'Trebuchet MS, Helvetica, sans-serif',
};
const SOCIAL_ICONS: Record<SocialNetwork, string> = {
  facebook: 'facebook-noshare',
  x: 'x-noshare',
  instagram: 'instagram-noshare',
  linkedin: 'linkedin-noshare',
  youtube: 'youtube-noshare',
  website: 'web-noshare',
};
const PADDING = '8px 24px';
const MUTED = '#71717a';

export type MjmlOptions = { slots: RenderSlots; publicUrl: URL };

type Attributes = Record<string, string | number | undefined>;
const attributes = (values: Attributes) =>
  Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');

function styleAttributes(style: BlockStyle | undefined): Attributes {
  return {
    align: style?.align,
    padding: style?.padding === undefined ? undefined : `${style.padding}px`,
    'container-background-color': style?.backgroundColor,
    color: style?.color,
    'font-size': style?.fontSize === undefined ? undefined : `${style.fontSize}px`,
  };
}

/** A URL as it goes out: Jinja held, a media path made absolute on the public URL. */
function urlOf(url: string, options: MjmlOptions): string {
  const absolute = url.startsWith('/media/') ? new URL(url, options.publicUrl).href : url;
  return options.slots.holdJinja(absolute.trim());
}

function leafMjml(block: LeafBlock, styles: BlocksStyles, options: MjmlOptions): string {
  const { slots } = options;
  const own = styleAttributes(block.style);
  const inline = (text: string) => slots.hold(inlineMarkdownToHtml(slots.holdJinja(text), styles));
  switch (block.type) {
    case 'heading': {
      const size = block.style?.fontSize ?? Math.round(styles.fontSize * [2, 1.5, 1.25][block.level - 1]);
      const text = slots.hold(escapeHtml(slots.holdJinja(block.text)));
      const tag = `h${block.level}`;
      return `<mj-text${attributes({ ...own, 'font-size': `${size}px`, 'line-height': '1.25' })}><${tag} style="margin:0;font-size:${size}px;font-weight:700">${text}</${tag}></mj-text>`;
    }
    case 'text':
      return `<mj-text${attributes(own)}>${inline(block.text)}</mj-text>`;
    case 'footer':
      return `<mj-text${attributes({ align: 'center', color: MUTED, 'font-size': '12px', ...definedOnly(own) })}>${inline(block.text)}</mj-text>`;
    case 'html':
      return `<mj-text${attributes(own)}>${slots.hold(block.html)}</mj-text>`;
    case 'image':
      return `<mj-image${attributes({
        ...own,
        src: urlOf(block.src, options),
        alt: slots.holdJinja(block.alt),
        href: block.href === undefined ? undefined : urlOf(block.href, options),
        width: block.width === undefined ? undefined : `${Math.min(block.width, styles.width)}px`,
      })} />`;
    case 'button':
      return `<mj-button${attributes({
        ...own,
        href: urlOf(block.href, options),
        'background-color': block.backgroundColor ?? styles.linkColor,
        color: block.color ?? block.style?.color ?? '#ffffff',
      })}>${slots.hold(escapeHtml(slots.holdJinja(block.text)))}</mj-button>`;
    case 'divider':
      return `<mj-divider${attributes({
        ...own,
        'border-color': block.color ?? '#e4e4e7',
        'border-width': `${block.thickness ?? 1}px`,
      })} />`;
    case 'spacer':
      return `<mj-spacer${attributes({ 'container-background-color': block.style?.backgroundColor, height: `${block.height}px` })} />`;
    case 'social':
      return `<mj-social${attributes({ mode: 'horizontal', 'icon-size': '24px', align: 'center', ...definedOnly(own) })}>${block.links
        .map(
          (link) =>
            `<mj-social-element${attributes({
              name: SOCIAL_ICONS[link.network],
              src: new URL(socialIconPath(link.network), options.publicUrl).href,
              'background-color': 'transparent',
              href: urlOf(link.url, options),
              alt: link.network,
            })} />`,
        )
        .join('')}</mj-social>`;
  }
}

function definedOnly(values: Attributes): Attributes {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function section(content: string, background: string): string {
  return `<mj-section background-color="${background}" padding="0">${content}</mj-section>`;
}

function blocksMjml(blocks: Block[], styles: BlocksStyles, options: MjmlOptions): string {
  const sections: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) sections.push(section(`<mj-column>${run.join('')}</mj-column>`, styles.contentColor));
    run = [];
  };
  for (const block of blocks) {
    if (block.type !== 'columns') {
      run.push(leafMjml(block, styles, options));
      continue;
    }
    flush();
    const columns = block.columns.map(
      (children) => `<mj-column>${children.map((child) => leafMjml(child, styles, options)).join('')}</mj-column>`,
    );
    sections.push(section(columns.join(''), block.style?.backgroundColor ?? styles.contentColor));
  }
  flush();
  return sections.join('');
}

/** The whole MJML document; `body` replaces the blocks when given (the Markdown format's content). */
export function documentMjml(document: BlocksDocument, options: MjmlOptions, body?: string): string {
  const { styles } = document;
  const font = FONT_STACKS[styles.fontFamily];
  const head = `<mj-head><mj-attributes><mj-all font-family="${font}" /><mj-text color="${styles.textColor}" font-size="${styles.fontSize}px" line-height="1.5" padding="${PADDING}" /><mj-button font-size="${styles.fontSize}px" padding="${PADDING}" /><mj-image padding="${PADDING}" /><mj-divider padding="${PADDING}" /><mj-social padding="${PADDING}" /></mj-attributes></mj-head>`;
  const content =
    body === undefined
      ? blocksMjml(document.blocks, styles, options)
      : section(`<mj-column><mj-text>${body}</mj-text></mj-column>`, styles.contentColor);
  const padded = `${section('<mj-column><mj-spacer height="16px" /></mj-column>', styles.contentColor)}${content}${section('<mj-column><mj-spacer height="16px" /></mj-column>', styles.contentColor)}`;
  return `<mjml>${head}<mj-body width="${styles.width}px" background-color="${styles.backgroundColor}">${padded}</mj-body></mjml>`;
}
