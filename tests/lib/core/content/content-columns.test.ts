import { describe, expect, it } from 'vitest';
import { blocksDocumentSchema } from '@/lib/core/content/blocks-document';
import { contentColumns, EMPTY_CONTENT, type ContentColumns } from '@/lib/core/content/content-columns';

/** What a save stores: the source, the HTML rendered from it, and a text part made unless the author gave one. */
const config = { publicUrl: new URL('https://mail.example.test') };
const save = async (input: Parameters<typeof contentColumns>[0], current: ContentColumns = EMPTY_CONTENT) => ({
  ...current,
  ...(await contentColumns(input, current, config)),
});
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: Error) => error.message,
  );

describe('contentColumns', () => {
  it('Markdown nested deeper than the parser can recurse is a 400 naming the field, not a crash', async () => {
    const error = await save({ format: 'markdown', markdown_content: `${'>'.repeat(10_000)} deep` }).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/^markdown_content: could not be rendered/),
    });
  });

  it('leaves the content alone when a write does not touch it', async () => {
    expect(await contentColumns({}, { ...EMPTY_CONTENT, htmlContent: '<p>x</p>' }, config)).toEqual({});
  });

  it('keeps html as written and makes its text part, Jinja intact, when the author gave none', async () => {
    const html = '<h1>Hi {{ first_name | upper }}</h1><p>Read <a href="https://example.test/{{ id }}">the news</a></p>';
    const first = await save({ html_content: html });
    expect(first).toMatchObject({ format: 'html', htmlContent: html, textGenerated: true });
    expect(first.textContent).toBe('Hi {{ first_name | upper }}\n\nRead the news [https://example.test/{{ id }}]');
    expect((await save({ html_content: '<p>Bye</p>' }, first)).textContent).toBe('Bye');
    const own = await save({ text_content: 'Mine' }, first);
    expect(own).toMatchObject({ textContent: 'Mine', textGenerated: false });
    expect((await save({ html_content: '<p>Later</p>' }, own)).textContent).toBe('Mine');
    expect((await save({ text_content: '' }, own)).textContent).toBe(
      'Hi {{ first_name | upper }}\n\nRead the news [https://example.test/{{ id }}]',
    );
  });

  it('stores the preheader in every format, trimmed, "" clearing it, and refuses a broken tag in it', async () => {
    const first = await save({ format: 'markdown', markdown_content: 'A', preheader: '  Hi {{ first_name }} ' });
    expect(first.preheader).toBe('Hi {{ first_name }}');
    expect(await contentColumns({ preheader: '' }, first, config)).toEqual({ preheader: null });
    expect(await refusal(save({ preheader: 'Hi {{ first_name' }))).toMatch(/^preheader: template syntax error/);
  });

  it('renders markdown, makes the text part, and makes it again when the source changes', async () => {
    const first = await save({ format: 'markdown', markdown_content: 'Hello **there**' });
    expect(first).toMatchObject({ format: 'markdown', markdownContent: 'Hello **there**', textGenerated: true });
    expect(first.htmlContent).toContain('<strong>there</strong>');
    expect(first.textContent).toBe('Hello there');
    const second = await save({ markdown_content: 'Bye' }, first);
    expect(second.textContent).toBe('Bye');
  });

  it("keeps the author's text part through later edits until it is cleared", async () => {
    const own = await save({ format: 'markdown', markdown_content: 'A', text_content: 'Mine' });
    expect(own).toMatchObject({ textContent: 'Mine', textGenerated: false });
    expect((await save({ markdown_content: 'B' }, own)).textContent).toBe('Mine');
    expect(await save({ text_content: null }, own)).toMatchObject({ textContent: 'A', textGenerated: true });
  });

  it('clearing the source clears the rendered parts', async () => {
    const first = await save({ format: 'markdown', markdown_content: 'A' });
    expect(await save({ markdown_content: null }, first)).toMatchObject({
      markdownContent: null,
      htmlContent: null,
      textContent: null,
      textGenerated: false,
    });
  });

  it('switches blocks to html keeping the HTML, and drops the source', async () => {
    const blocks = blocksDocumentSchema.parse({ version: 1, blocks: [{ id: 'a', type: 'text', text: 'Hi' }] });
    const first = await save({ format: 'blocks', blocks_content: blocks });
    expect(first.blocksContent).toEqual(blocks);
    const html = await save({ format: 'html' }, first);
    expect(html).toMatchObject({ format: 'html', blocksContent: null, htmlContent: first.htmlContent });
  });

  it.each([
    [
      { format: 'markdown', markdown_content: 'x', html_content: '<p>x</p>' },
      'html_content: is rendered from markdown_content with format markdown; leave it out',
    ],
    [
      { blocks_content: { version: 1, styles: {}, blocks: [] } },
      'blocks_content: needs format blocks (the format is html)',
    ],
    [{ format: 'markdown' }, 'markdown_content: is required when format changes to markdown'],
  ] as const)('refuses %j', async (input, message) => {
    expect(await refusal(contentColumns(input, EMPTY_CONTENT, config))).toBe(message);
  });
});
