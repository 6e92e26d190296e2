import { describe, expect, it } from 'vitest';
import { blocksDocumentSchema } from '@/lib/core/content/blocks-document';
import { BLOCK_TYPES, countBlocks, imagesWithoutAlt, moveItem, newBlock } from '@/lib/client/blocks-editing';
import { contentBodyOf, contentValueOf, hasContent, sourceErrorOf } from '@/lib/client/content-format';

describe('the content editor’s body', () => {
  it('a saved body opens in its format; HTML rendered from Markdown or blocks is not offered for editing', () => {
    const markdown = contentValueOf({ format: 'markdown', markdown_content: '# Hi', html_content: '<h1>Hi</h1>' });
    expect(markdown).toMatchObject({ format: 'markdown', markdown_content: '# Hi', html_content: '' });
    expect(contentValueOf({ html_content: '<p>x</p>' })).toMatchObject({ format: 'html', html_content: '<p>x</p>' });
    expect(contentValueOf({ format: 'blocks', blocks_content: 'not a document' }).blocks_content.blocks).toEqual([]);
  });

  it('sends the format and its own source only, never another format’s', () => {
    const value = contentValueOf({ format: 'markdown', markdown_content: '# Hi' });
    expect(contentBodyOf(value)).toEqual({ format: 'markdown', markdown_content: '# Hi' });
    expect(contentBodyOf({ ...value, format: 'html', html_content: '' })).toEqual({
      format: 'html',
      html_content: null,
    });
    expect(contentBodyOf({ ...value, format: 'blocks' })).toEqual({
      format: 'blocks',
      blocks_content: value.blocks_content,
    });
  });

  it('an empty body switches format without a question; one with content does not', () => {
    const empty = contentValueOf({});
    expect(hasContent(empty)).toBe(false);
    expect(hasContent({ ...empty, html_content: '  ' })).toBe(false);
    expect(hasContent({ ...empty, html_content: '<p>x</p>' })).toBe(true);
    expect(
      hasContent({
        ...empty,
        format: 'blocks',
        blocks_content: { version: 1, styles: {}, blocks: [newBlock('divider')] },
      }),
    ).toBe(true);
  });
});

describe('an API error about the body, placed in the editor', () => {
  it.each([
    [
      'markdown_content: template syntax error: an expression ({{) opened on line 3 is not closed',
      null,
      'markdown_content',
      3,
    ],
    ['html_content: template syntax error: unexpected token (line 2)', 'html_content', 'html_content', 2],
    ['blocks_content.blocks.0.text: block "a": template syntax error: bad', 'blocks_content', 'blocks_content', null],
  ])('%s names its field and line', (message, field, expectedField, line) => {
    expect(sourceErrorOf(message, field)).toMatchObject({ field: expectedField, line });
  });

  it('an error about another field is not the editor’s', () => {
    expect(sourceErrorOf('subject: template syntax error (line 1)', 'subject')).toBeNull();
    expect(sourceErrorOf('something went wrong', null)).toBeNull();
  });

  it('the message shown is without the field name in front', () => {
    expect(sourceErrorOf('markdown_content: template syntax error: x (line 4)', null)?.message).toBe(
      'template syntax error: x (line 4)',
    );
  });
});

describe('blocks as the editor makes them', () => {
  it('every new block, and a document of one of each, passes the API’s schema (an image once it has its address)', () => {
    const blocks = BLOCK_TYPES.map((type) =>
      type === 'image' ? { ...newBlock(type), src: 'https://example.com/a.png', alt: 'A' } : newBlock(type),
    );
    const parsed = blocksDocumentSchema.safeParse({ version: 1, styles: {}, blocks });
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(new Set(blocks.map((block) => block.id)).size).toBe(blocks.length);
  });

  it('counts columns’ children, as the 200-block limit does', () => {
    expect(countBlocks([newBlock('heading'), newBlock('columns')])).toBe(4);
  });

  it('moves a block within bounds only', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('flags images without alt text, in columns too', () => {
    const bare = { ...newBlock('image'), src: 'https://example.com/a.png', alt: ' ' } as ReturnType<typeof newBlock>;
    const columns = newBlock('columns');
    if (columns.type === 'columns') columns.columns[1].push({ ...bare, id: 'inner' } as never);
    expect(imagesWithoutAlt([bare, columns])).toEqual([bare.id, 'inner']);
  });
});
