import { describe, expect, it } from 'vitest';
import { blocksDocumentSchema, type BlocksDocumentInput } from '@/lib/core/content/blocks-document';
import { renderContentFormat } from '@/lib/core/content/render-content-format';

/** The one renderer of Markdown and blocks bodies: responsive email HTML with its text part. */
const publicUrl = new URL('https://mail.example.test');
const renderBlocks = (blocks: BlocksDocumentInput['blocks'], styles: BlocksDocumentInput['styles'] = {}) =>
  renderContentFormat(
    { format: 'blocks', blocks: blocksDocumentSchema.parse({ version: 1, styles, blocks }) },
    { publicUrl },
  );
const renderMarkdown = (markdown: string) => renderContentFormat({ format: 'markdown', markdown }, { publicUrl });
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string; field?: string },
  );
  expect(error, 'expected the source to be refused').not.toBeNull();
  return error!;
};
const issues = (input: unknown) => {
  const result = blocksDocumentSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('renderContentFormat: blocks', () => {
  it('renders every block type into one responsive document, the text part beside it', async () => {
    const { html, text } = await renderBlocks([
      { id: 'title', type: 'heading', level: 1, text: 'Autumn sale' },
      {
        id: 'intro',
        type: 'text',
        text: 'Up to **40%** off, *this week*.\nSee [the shop](https://shop.example/a?b=1&c=2).',
      },
      { id: 'photo', type: 'image', src: '/media/sale.png', alt: 'Leaves', href: 'https://shop.example', width: 300 },
      { id: 'cta', type: 'button', text: 'Shop now', href: 'https://shop.example/go', backgroundColor: '#112233' },
      { id: 'rule', type: 'divider', color: '#abcdef', thickness: 2 },
      { id: 'gap', type: 'spacer', height: 40 },
      {
        id: 'two',
        type: 'columns',
        columns: [
          [{ id: 'left', type: 'text', text: 'Left side' }],
          [{ id: 'right', type: 'text', text: 'Right side' }],
        ],
      },
      { id: 'follow', type: 'social', links: [{ network: 'x', url: 'https://x.com/shop' }] },
      { id: 'raw', type: 'html', html: '<table><tr><td class="own">Own HTML</td></tr></table>' },
      { id: 'foot', type: 'footer', text: 'Shop Ltd, 1 Main St' },
    ]);
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('@media only screen and (min-width:480px)');
    expect(html).toMatch(/<h1 style="[^"]*font-size:32px[^"]*">Autumn sale<\/h1>/);
    expect(html).toContain('<strong>40%</strong>');
    expect(html).toContain('<em>this week</em>');
    expect(html).toMatch(/<a style="color:#2563eb;[^"]*" href="https:\/\/shop\.example\/a\?b=1&amp;c=2">the shop<\/a>/);
    expect(html).toContain('src="https://mail.example.test/media/sale.png"');
    expect(html).toContain('alt="Leaves"');
    expect(html).toMatch(/href="https:\/\/shop\.example\/go"[^>]*background:#112233/);
    expect(html).toMatch(/border-top:solid 2px #abcdef/);
    expect(html).toContain('height:40px');
    expect(html).toContain('mj-column-per-50');
    expect(html).toContain('href="https://x.com/shop"');
    // Every image the message loads is ours: the social icons are served from the public URL, not mailjet.com.
    expect(html).toContain('src="https://mail.example.test/media/icons/x.png"');
    expect(html).not.toMatch(/mailjet|https?:\/\/(?!mail\.example\.test|shop\.example|x\.com)[^"' )]+\.(png|gif|jpg)/);
    expect(html).toContain('<td class="own">Own HTML</td>');
    expect(html).toContain('Shop Ltd, 1 Main St');
    expect(text).toContain('Autumn sale');
    expect(text).toContain('Up to 40% off, this week.');
    expect(text).toContain('the shop [https://shop.example/a?b=1&c=2]');
    expect(text).toContain('Shop now [https://shop.example/go]');
    expect(text).not.toMatch(/<|mj-|@media/);
  });

  it('applies the global styles and each block style', async () => {
    const { html } = await renderBlocks(
      [
        {
          id: 'a',
          type: 'text',
          text: 'Styled [link](https://a.example)',
          style: { align: 'right', padding: 12, color: '#ff0000', fontSize: 20, backgroundColor: '#00ff00' },
        },
      ],
      {
        width: 640,
        backgroundColor: '#010203',
        contentColor: '#040506',
        linkColor: '#0a0b0c',
        fontFamily: 'Georgia',
        fontSize: 18,
      },
    );
    expect(html).toContain('max-width:640px');
    expect(html).toContain('background-color:#010203');
    expect(html).toContain('background-color:#040506');
    expect(html).toContain('color:#0a0b0c');
    expect(html).toMatch(/font-family:Georgia, serif/);
    expect(html).toMatch(/text-align:right;color:#ff0000/);
    expect(html).toContain('font-size:20px');
    expect(html).toContain('padding:12px');
    expect(html).toContain('background:#00ff00');
  });

  it('keeps Jinja placeholders whole in text, attributes and links, for substitution per recipient', async () => {
    const { html, text } = await renderBlocks([
      { id: 'h', type: 'heading', level: 2, text: 'Hi {{ first_name }}' },
      {
        id: 't',
        type: 'text',
        text: '{% if vip %}**VIP** {{ name | default("friend") }}{% endif %} [offer]({{ offer_url }})',
      },
      { id: 'b', type: 'button', text: 'Go {{ first_name }}', href: '{{ button_url }}' },
      { id: 'i', type: 'image', src: '{{ cdn }}/a.png', alt: '{{ alt_text }}' },
    ]);
    expect(html).toContain('Hi {{ first_name }}');
    expect(html).toContain('{% if vip %}<strong>VIP</strong> {{ name | default("friend") }}{% endif %}');
    expect(html).toContain('href="{{ offer_url }}"');
    expect(html).toContain('href="{{ button_url }}"');
    expect(html).toContain('Go {{ first_name }}');
    expect(html).toContain('src="{{ cdn }}/a.png"');
    expect(html).toContain('alt="{{ alt_text }}"');
    expect(text).toContain('Hi {{ first_name }}');
    expect(text).toContain('offer [{{ offer_url }}]');
  });

  it('shows HTML typed in a text block as text; an html block is kept as written, never read as MJML', async () => {
    const { html } = await renderBlocks([
      { id: 't', type: 'text', text: '<script>alert(1)</script><img src=x onerror=alert(1)>' },
      { id: 'h', type: 'html', html: '</mj-text><mj-include path="/etc/passwd" /><mj-raw>x</mj-raw>' },
    ]);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('root:');
    expect(html).toContain('</mj-text><mj-include path="/etc/passwd" /><mj-raw>x</mj-raw>');
  });

  it('escapes attribute values', async () => {
    const { html } = await renderBlocks([
      { id: 'i', type: 'image', src: 'https://a.example/x.png', alt: '" onerror="alert(1)' },
    ]);
    expect(html).toContain('alt="&quot; onerror=&quot;alert(1)"');
    expect(html).not.toContain('" onerror="alert(1)"');
  });

  it('refuses a block template that does not compile, naming the block', async () => {
    const error = await refusal(renderBlocks([{ id: 'hero', type: 'text', text: 'Hi {{ first_name' }]));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/^blocks_content\.blocks\.0\.text: block "hero": template syntax error/);
  });

  it('refuses a tag opened in one block and never closed', async () => {
    const error = await refusal(renderBlocks([{ id: 'a', type: 'text', text: '{% if vip %}' }]));
    expect(error.message).toMatch(/^blocks_content\.blocks\.0\.text: block "a": template syntax error/);
  });
});

describe('blocksDocumentSchema', () => {
  it.each([
    [
      'javascript: in a button',
      { id: 'cta', type: 'button', text: 'x', href: 'javascript:alert(1)' },
      'blocks.0.href: block "cta": javascript: URLs are not allowed',
    ],
    [
      'disguised javascript:',
      { id: 'cta', type: 'button', text: 'x', href: ' JaVa\tScRiPt:alert(1)' },
      'blocks.0.href: block "cta": javascript: URLs are not allowed',
    ],
    [
      'vbscript: in an image link',
      { id: 'img', type: 'image', src: 'https://a.example/a.png', alt: '', href: 'vbscript:x' },
      'blocks.0.href: block "img": vbscript: URLs are not allowed',
    ],
    [
      'data: as an image',
      { id: 'img', type: 'image', src: 'data:image/svg+xml;base64,PHN2Zz4=', alt: '' },
      'blocks.0.src: block "img": data: URLs are not allowed',
    ],
    [
      'javascript: in inline Markdown',
      { id: 'p', type: 'text', text: 'see [x](javascript:alert(1))' },
      'blocks.0.text: block "p": javascript: URLs are not allowed',
    ],
    [
      'a relative link',
      { id: 'p', type: 'footer', text: '[x](../admin)' },
      'blocks.0.text: block "p": must be an http(s) or mailto: URL, a /media/ path or a Jinja placeholder',
    ],
    [
      'javascript: in a social link',
      { id: 's', type: 'social', links: [{ network: 'x', url: 'javascript:x' }] },
      'blocks.0.links.0.url: block "s": javascript: URLs are not allowed',
    ],
    [
      'an unknown block type',
      { id: 'q', type: 'video' },
      'blocks.0.type: must be one of heading, text, image, button, divider, spacer, columns, social, footer, html',
    ],
    ['a bad colour', { id: 'd', type: 'divider', color: 'red' }, 'blocks.0.color: must be a colour like #1a2b3c'],
    ['a bad id', { id: 'a b', type: 'spacer', height: 10 }, 'blocks.0.id: must be 1 to 64 letters, digits, - or _'],
    [
      'an oversize heading',
      { id: 'h', type: 'heading', level: 1, text: 'x'.repeat(501) },
      'blocks.0.text: must be at most 500 characters',
    ],
    [
      'an oversize html block',
      { id: 'h', type: 'html', html: 'x'.repeat(50_001) },
      'blocks.0.html: must be at most 50000 characters',
    ],
    ['a wrong type', { id: 'h', type: 'spacer', height: '10' }, 'blocks.0.height: must be an integer'],
    [
      'nested columns',
      { id: 'c', type: 'columns', columns: [[{ id: 'n', type: 'columns', columns: [[], []] }], []] },
      'blocks.0.columns.0.0.type: must be one of heading, text, image, button, divider, spacer, columns, social, footer, html',
    ],
    ['one column', { id: 'c', type: 'columns', columns: [[]] }, 'blocks.0.columns: must hold 2 or 3 columns'],
  ])('refuses %s', (_name, block, message) => {
    expect(issues({ version: 1, blocks: [block] })).toEqual([message]);
  });

  it('accepts http(s), mailto:, /media/ paths and Jinja placeholders', () => {
    const urls = [
      'https://a.example',
      'http://a.example/x',
      'mailto:a@example.com',
      '/media/x.png',
      '{{ url }}',
      '{{ base }}/x',
    ];
    expect(
      issues({ version: 1, blocks: urls.map((href, i) => ({ id: `b${i}`, type: 'button', text: 'x', href })) }),
    ).toEqual([]);
  });

  it('refuses a block id used twice, in columns too', () => {
    expect(
      issues({
        version: 1,
        blocks: [
          { id: 'a', type: 'spacer', height: 8 },
          { id: 'c', type: 'columns', columns: [[{ id: 'a', type: 'spacer', height: 8 }], []] },
        ],
      }),
    ).toEqual(['blocks.1.columns.0.0.id: block id "a" is used twice']);
  });

  it('holds at most 200 blocks, columns children counted', () => {
    const spacers = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, type: 'spacer', height: 8 }));
    expect(issues({ version: 1, blocks: spacers(200, 's') })).toEqual([]);
    expect(issues({ version: 1, blocks: spacers(201, 's') })).toEqual(['blocks: must hold at most 200 blocks']);
    const columns = { id: 'c', type: 'columns', columns: [spacers(2, 'l'), spacers(2, 'r')] };
    expect(issues({ version: 1, blocks: [...spacers(196, 's'), columns] })).toEqual([
      "blocks: must hold at most 200 blocks, columns' children counted (has 201)",
    ]);
  });

  it('fills the default styles and refuses other versions', () => {
    expect(blocksDocumentSchema.parse({ version: 1, blocks: [] }).styles).toEqual({
      width: 600,
      backgroundColor: '#f4f4f5',
      contentColor: '#ffffff',
      textColor: '#18181b',
      linkColor: '#2563eb',
      fontFamily: 'Arial',
      fontSize: 16,
    });
    expect(issues({ version: 2, blocks: [] })).toEqual(['version: must be 1']);
    expect(issues({ version: 1, blocks: [], styles: { width: 2000 } })).toEqual(['styles.width: must be at most 800']);
  });
});

describe('renderContentFormat: markdown', () => {
  it('renders Markdown in the default layout with styles inlined and Jinja kept', async () => {
    const { html, text } = await renderMarkdown(
      '# Hello {{ first_name }}\n\nA paragraph with [a link]({{ url }}) and `code`.\n\n- one\n- two\n\n> quoted\n',
    );
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<h1 style="[^"]*font-size:32px[^"]*">Hello {{ first_name }}<\/h1>/);
    expect(html).toContain(
      '<p style="margin:0 0 16px">A paragraph with <a style="color:#2563eb;text-decoration:underline" href="{{ url }}">a link</a>',
    );
    expect(html).toMatch(/<ul style="[^"]+">\s*<li>one<\/li>/);
    expect(html).toMatch(/<blockquote style="[^"]+">/);
    expect(html).toContain('max-width:600px');
    expect(text).toContain('Hello {{ first_name }}');
    expect(text).toContain('a link [{{ url }}]');
    expect(text).toMatch(/\* one\n \* two/);
  });

  it('keeps raw HTML as html_content keeps it', async () => {
    const { html } = await renderMarkdown('<div class="mine">raw</div>');
    expect(html).toContain('<div class="mine">raw</div>');
  });

  it.each([
    [
      'a javascript: link',
      'Intro\n\n[x](javascript:alert(1))',
      'markdown_content: line 3: javascript: URLs are not allowed',
    ],
    [
      'a data: image',
      '![x](data:image/png;base64,iVBORw0KGgo=)',
      'markdown_content: line 1: data: URLs are not allowed',
    ],
    ['a vbscript: link', 'a\nb [x](VBScript:msgbox)', 'markdown_content: line 2: vbscript: URLs are not allowed'],
  ])('refuses %s, naming the line', async (_name, markdown, message) => {
    const error = await refusal(renderMarkdown(markdown));
    expect(error.message).toBe(message);
    expect(error.field).toBe('markdown_content');
  });

  it('refuses Markdown whose template does not compile, naming the field', async () => {
    const error = await refusal(renderMarkdown('Hello\n\n{{ first_name'));
    expect(error.message).toMatch(/^markdown_content: template syntax error/);
  });
});
