import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { campaignAccounts, expectCampaign } from '../support/campaign-fixtures';
import { dashboardSession } from '../support/dashboard-session';
import { newAccount } from '../support/shared';
import { expectError, expectTemplate, expectVersion } from '../support/template-fixtures';

/**
 * Content formats (marketing-api.md, Content formats) on templates and campaigns: a Markdown or
 * blocks source is rendered by the server into `html_content` (responsive, CSS inlined) and a text
 * part, Jinja kept for each recipient; a source that cannot be rendered is 400 naming field and place.
 * Sending such a campaign is in e2e/smtp/campaign-delivery.spec.ts.
 */
let api: ApiClient;
let sender: string;
let listId: string;

test.beforeAll(async () => {
  ({ api, sender, listId } = await campaignAccounts());
});

const MARKDOWN = '# Hello {{ first_name }}\n\nOur [autumn offer]({{ offer_url }}) is **on**.\n\n- one\n- two\n';
const BLOCKS = {
  version: 1,
  styles: { linkColor: '#aa0000' },
  blocks: [
    { id: 'title', type: 'heading', level: 1, text: 'Hi {{ first_name }}' },
    { id: 'body', type: 'text', text: 'Read [the news](https://example.org/news).' },
    { id: 'cta', type: 'button', text: 'Open', href: 'https://example.org/open' },
    { id: 'foot', type: 'footer', text: 'Example Ltd' },
  ],
};
const templates = (suffix = '') => api.account(`/templates${suffix}`);
const campaigns = (suffix = '') => api.account(`/campaigns${suffix}`);

function expectRendered(html: string) {
  expect(html).toMatch(/^<!doctype html>/i);
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(html).toContain('@media only screen and (min-width:480px)');
}

test('templates - markdown: 201 with format, source and the rendered html_content and text_content; PUT re-renders; publish freezes the format', async () => {
  const created = await api.post(templates(), {
    name: 'News',
    subject: 'Hi',
    format: 'markdown',
    markdown_content: MARKDOWN,
  });
  expect(created.status, created.text).toBe(201);
  expectTemplate(created.body);
  expect(created.body).toMatchObject({ format: 'markdown', markdown_content: MARKDOWN, blocks_content: null });
  expectRendered(created.body.html_content);
  expect(created.body.html_content).toMatch(/<h1 style="[^"]+">Hello {{ first_name }}<\/h1>/);
  expect(created.body.html_content).toContain('href="{{ offer_url }}"');
  expect(created.body.text_content).toContain('Hello {{ first_name }}');
  expect(created.body.text_content).toContain('autumn offer [{{ offer_url }}]');
  expect((await api.get(templates(`/${created.body.id}`))).body).toEqual(created.body);

  const edited = await api.put(templates(`/${created.body.id}`), { markdown_content: 'Just *this*.' });
  expect(edited.status, edited.text).toBe(200);
  expect(edited.body.html_content).toContain('<em>this</em>');
  expect(edited.body.html_content).not.toContain('Hello');
  expect(edited.body.text_content).toBe('Just this.');

  // A text part of the author's own is kept through later edits.
  const own = await api.put(templates(`/${created.body.id}`), { text_content: 'Mine {{ first_name }}' });
  expect(own.body.text_content).toBe('Mine {{ first_name }}');
  const again = await api.put(templates(`/${created.body.id}`), { markdown_content: 'Other' });
  expect(again.body.text_content).toBe('Mine {{ first_name }}');
  const cleared = await api.put(templates(`/${created.body.id}`), { text_content: null });
  expect(cleared.body.text_content).toBe('Other');

  const version = await api.post(templates(`/${created.body.id}/publish`));
  expect(version.status, version.text).toBe(201);
  expectVersion(version.body);
  expect(version.body).toMatchObject({
    format: 'markdown',
    markdown_content: 'Other',
    html_content: cleared.body.html_content,
  });
});

test('templates - blocks: the document is stored with its defaults and rendered; switching to html keeps the HTML to edit', async () => {
  const created = await api.post(templates(), { name: 'Blocks', format: 'blocks', blocks_content: BLOCKS });
  expect(created.status, created.text).toBe(201);
  expect(created.body.format).toBe('blocks');
  expect(created.body.blocks_content.styles).toMatchObject({ width: 600, linkColor: '#aa0000', fontFamily: 'Arial' });
  expect(created.body.blocks_content.blocks).toEqual(BLOCKS.blocks);
  expectRendered(created.body.html_content);
  expect(created.body.html_content).toContain('Hi {{ first_name }}');
  expect(created.body.html_content).toMatch(/href="https:\/\/example\.org\/open"[^>]*background:#aa0000/);
  expect(created.body.text_content).toContain('Open [https://example.org/open]');

  const html = await api.put(templates(`/${created.body.id}`), { format: 'html' });
  expect(html.status, html.text).toBe(200);
  expect(html.body).toMatchObject({ format: 'html', blocks_content: null, html_content: created.body.html_content });
  const back = await api.put(templates(`/${created.body.id}`), { format: 'markdown' });
  expectError(back, 400, /^markdown_content: is required when format changes to markdown/);
});

test('templates - html stays as written, with a text part made from it unless the author gives one', async () => {
  const html = '<p>Hi {{ first_name }}, read <a href="https://example.org/n">the news</a></p>';
  const created = await api.post(templates(), { name: 'Plain', html_content: html });
  expect(created.body).toMatchObject({
    format: 'html',
    html_content: html,
    text_content: 'Hi {{ first_name }}, read the news [https://example.org/n]',
    markdown_content: null,
    blocks_content: null,
  });
  const edited = await api.put(templates(`/${created.body.id}`), { html_content: '<p>Bye</p>' });
  expect(edited.body.text_content).toBe('Bye');
  const own = await api.put(templates(`/${created.body.id}`), { text_content: 'My own words' });
  expect((await api.put(templates(`/${created.body.id}`), { html_content: '<p>Later</p>' })).body.text_content).toBe(
    'My own words',
  );
  expect(own.status).toBe(200);
});

test('templates and campaigns - the preheader is kept in every format, published with the version, and sent hidden first in the HTML', async () => {
  const owner = await newAccount('Preheader preview');
  const session = await dashboardSession(owner.ownerId);
  const preview = (body: unknown) =>
    owner.api.with(null).request('POST', `/internal/accounts/${owner.accountId}/templates/preview`, {
      body,
      headers: session,
      checkContract: false,
    });
  for (const source of [
    { format: 'html', html_content: '<html><body><p>Body</p></body></html>' },
    { format: 'markdown', markdown_content: 'Body' },
    { format: 'blocks', blocks_content: BLOCKS },
  ]) {
    const created = await api.post(templates(), {
      name: `Pre ${source.format}`,
      subject: 'Hi',
      preheader: 'Autumn <sale> for {{ first_name }}',
      ...source,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.preheader).toBe('Autumn <sale> for {{ first_name }}');
    // The stored body is the author's: the preheader is added when the message is made.
    expect(created.body.html_content).not.toContain('data-preheader');
    const rendered = await preview({
      subject: 'Hi',
      preheader: 'Autumn <sale> for {{ first_name }}',
      ...source,
      substitutions: { first_name: '<Ada>' },
    });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.html_content).toMatch(
      /<body[^>]*><div style="display:none;[^"]*" data-preheader>Autumn &lt;sale&gt; for &lt;Ada&gt;&#847;/,
    );
    const published = await api.post(templates(`/${created.body.id}/publish`), {});
    expect(published.body.preheader).toBe('Autumn <sale> for {{ first_name }}');
  }
  const campaign = await api.post(campaigns(), {
    name: 'Pre',
    subject: 'Hi',
    preheader: 'Inside: {{ first_name }}',
    format: 'markdown',
    markdown_content: 'Body',
  });
  expect(campaign.body.preheader).toBe('Inside: {{ first_name }}');
  const cleared = await api.put(campaigns(`/${campaign.body.id}`), { preheader: '' });
  expect(cleared.body).toMatchObject({ preheader: null, markdown_content: 'Body' });
  expectError(
    await api.put(campaigns(`/${campaign.body.id}`), { preheader: 'Hi {{ first_name' }),
    400,
    /^preheader: template syntax error/,
  );
});

test('campaigns - each format: create, update and get carry format, source and the rendered html_content', async () => {
  const base = {
    name: 'Formats',
    from: { email: `news@${sender}` },
    subject: 'Hi {{ first_name }}',
    list_ids: [listId],
  };
  const markdown = await api.post(campaigns(), { ...base, format: 'markdown', markdown_content: MARKDOWN });
  expect(markdown.status, markdown.text).toBe(201);
  expectCampaign(markdown.body);
  expect(markdown.body).toMatchObject({ format: 'markdown', markdown_content: MARKDOWN, blocks_content: null });
  expectRendered(markdown.body.html_content);

  const blocks = await api.put(campaigns(`/${markdown.body.id}`), { format: 'blocks', blocks_content: BLOCKS });
  expect(blocks.status, blocks.text).toBe(200);
  expect(blocks.body).toMatchObject({ format: 'blocks', markdown_content: null });
  expect(blocks.body.html_content).toContain('Hi {{ first_name }}');
  expect((await api.get(campaigns(`/${markdown.body.id}`))).body).toEqual(blocks.body);

  const html = await api.put(campaigns(`/${markdown.body.id}`), { format: 'html', html_content: '<p>Plain</p>' });
  expect(html.body).toMatchObject({ format: 'html', html_content: '<p>Plain</p>', blocks_content: null });

  const template = await api.post(templates(), { name: 'T', subject: 'S', html_content: '<p>T</p>' });
  const fromTemplate = await api.put(campaigns(`/${markdown.body.id}`), { template_id: template.body.id });
  expect(fromTemplate.body).toMatchObject({
    format: 'html',
    html_content: null,
    markdown_content: null,
    template_id: template.body.id,
  });
  expectError(
    await api.post(campaigns(), {
      name: 'Both',
      template_id: template.body.id,
      markdown_content: 'x',
      format: 'markdown',
    }),
    400,
    /^template_id: give either template_id or the content/,
  );
});

const blocksWith = (block: Record<string, unknown>) => ({ version: 1, blocks: [block] });
const REFUSALS: [string, Record<string, unknown>, RegExp][] = [
  ['an unknown format', { format: 'mjml' }, /^format: must be html, markdown or blocks/],
  ['a format of the wrong type', { format: 1 }, /^format: must be html, markdown or blocks/],
  [
    'markdown_content of the wrong type',
    { format: 'markdown', markdown_content: 5 },
    /^markdown_content: must be a string/,
  ],
  [
    'oversize markdown_content',
    { format: 'markdown', markdown_content: 'x'.repeat(1_000_001) },
    /^markdown_content: must be at most 1000000 characters/,
  ],
  ['blocks_content of the wrong type', { format: 'blocks', blocks_content: 'x' }, /^blocks_content: /],
  [
    'a document without version',
    { format: 'blocks', blocks_content: { blocks: [] } },
    /^blocks_content\.version: must be 1/,
  ],
  [
    'an unknown block type',
    { format: 'blocks', blocks_content: blocksWith({ id: 'v', type: 'video' }) },
    /^blocks_content\.blocks\.0\.type: must be one of heading, text/,
  ],
  [
    'a missing field in a block',
    { format: 'blocks', blocks_content: blocksWith({ id: 'b', type: 'button', text: 'x' }) },
    /^blocks_content\.blocks\.0\.href: /,
  ],
  [
    'a javascript: button',
    {
      format: 'blocks',
      blocks_content: blocksWith({ id: 'cta', type: 'button', text: 'x', href: 'javascript:alert(1)' }),
    },
    /^blocks_content\.blocks\.0\.href: block "cta": javascript: URLs are not allowed/,
  ],
  [
    'a data: image',
    {
      format: 'blocks',
      blocks_content: blocksWith({
        id: 'pic',
        type: 'image',
        alt: '',
        src: 'data:text/html,<script>alert(1)</script>',
      }),
    },
    /^blocks_content\.blocks\.0\.src: block "pic": data: URLs are not allowed/,
  ],
  [
    'a vbscript: link in text',
    { format: 'blocks', blocks_content: blocksWith({ id: 'p', type: 'text', text: '[x](vbscript:msgbox)' }) },
    /^blocks_content\.blocks\.0\.text: block "p": vbscript: URLs are not allowed/,
  ],
  [
    '201 blocks',
    {
      format: 'blocks',
      blocks_content: {
        version: 1,
        blocks: Array.from({ length: 201 }, (_, i) => ({ id: `s${i}`, type: 'spacer', height: 8 })),
      },
    },
    /^blocks_content\.blocks: must hold at most 200 blocks/,
  ],
  [
    'an oversize block',
    { format: 'blocks', blocks_content: blocksWith({ id: 'h', type: 'html', html: 'x'.repeat(50_001) }) },
    /^blocks_content\.blocks\.0\.html: must be at most 50000 characters/,
  ],
  [
    'a block template that does not compile',
    { format: 'blocks', blocks_content: blocksWith({ id: 'hero', type: 'text', text: 'Hi {{ first_name' }) },
    /^blocks_content\.blocks\.0\.text: block "hero": template syntax error/,
  ],
  [
    'a javascript: link in Markdown',
    { format: 'markdown', markdown_content: 'Hi\n\n[x](javascript:alert(1))' },
    /^markdown_content: line 3: javascript: URLs are not allowed/,
  ],
  [
    'a Markdown template that does not compile',
    { format: 'markdown', markdown_content: 'Hi {% if x %}' },
    /^markdown_content: template syntax error/,
  ],
  [
    'html_content beside a source',
    { format: 'markdown', markdown_content: 'x', html_content: '<p>x</p>' },
    /^html_content: is rendered from markdown_content with format markdown/,
  ],
  [
    'a source without its format',
    { markdown_content: 'x' },
    /^markdown_content: needs format markdown \(the format is html\)/,
  ],
  [
    "the other format's source",
    { format: 'blocks', blocks_content: { version: 1, blocks: [] }, markdown_content: 'x' },
    /^markdown_content: needs format markdown \(the format is blocks\)/,
  ],
  ['a format without its source', { format: 'blocks' }, /^blocks_content: is required when format changes to blocks/],
];

for (const [name, body, message] of REFUSALS) {
  test(`POST /templates and /campaigns - ${name} is 400 naming the field`, async () => {
    expectError(await api.post(templates(), { name: 'Bad', ...body }), 400, message);
    expectError(await api.post(campaigns(), { name: 'Bad', ...body }), 400, message);
  });
}

test('PUT /templates/:id and /campaigns/:id - a broken document is 400 and changes nothing; an unknown id is 404', async () => {
  const template = await api.post(templates(), { name: 'Kept', format: 'markdown', markdown_content: 'Kept' });
  const campaign = await api.post(campaigns(), { name: 'Kept', format: 'markdown', markdown_content: 'Kept' });
  const broken = { markdown_content: '[x](javascript:alert(1))' };
  expectError(await api.put(templates(`/${template.body.id}`), broken), 400, /^markdown_content: line 1: javascript:/);
  expectError(await api.put(campaigns(`/${campaign.body.id}`), broken), 400, /^markdown_content: line 1: javascript:/);
  expect((await api.get(templates(`/${template.body.id}`))).body).toEqual(template.body);
  expect((await api.get(campaigns(`/${campaign.body.id}`))).body).toEqual(campaign.body);
  const unknown = '01a20000-0000-7000-8000-000000000000';
  expectError(await api.put(templates(`/${unknown}`), { markdown_content: 'x' }), 404);
  expectError(await api.put(campaigns(`/${unknown}`), { markdown_content: 'x' }), 404);
});

test('POST /internal/.../templates/preview - renders a markdown or blocks draft, then substitutes the sample values', async () => {
  const owner = await newAccount('Formats preview');
  const session = await dashboardSession(owner.ownerId);
  const preview = (body: unknown) =>
    owner.api.with(null).request('POST', `/internal/accounts/${owner.accountId}/templates/preview`, {
      body,
      headers: session,
      checkContract: false,
    });
  const markdown = await preview({
    subject: 'S',
    format: 'markdown',
    markdown_content: MARKDOWN,
    substitutions: { first_name: 'Ada <b>', offer_url: 'https://example.org/offer?a=1&b=2' },
  });
  expect(markdown.status, markdown.text).toBe(200);
  expect(markdown.body.html_content).toMatch(/Hello Ada &lt;b&gt;<\/h1>/);
  expect(markdown.body.html_content).toContain('href="https://example.org/offer?a=1&amp;b=2"');
  expect(markdown.body.text_content).toContain('Hello Ada <b>');
  const blocks = await preview({
    subject: 'S',
    format: 'blocks',
    blocks_content: BLOCKS,
    substitutions: { first_name: 'Bo' },
  });
  expect(blocks.status, blocks.text).toBe(200);
  expect(blocks.body.html_content).toContain('Hi Bo');
  expectError(
    await preview({
      format: 'blocks',
      blocks_content: blocksWith({ id: 'x', type: 'button', text: 'x', href: 'javascript:x' }),
    }),
    400,
    /^blocks_content\.blocks\.0\.href: block "x": javascript:/,
  );
});
