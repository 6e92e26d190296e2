import { afterAll, describe, expect, it } from 'vitest';
import { buildMime } from '@/lib/core/messages/build-mime';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import type { BatchContext } from '@/lib/mail/batch-context';
import type { ClaimedMessage } from '@/lib/mail/claim-due-messages';
import { renderMessage, renderTemplatedMessages } from '@/lib/mail/render-message';

const renderer = createTemplateRenderer();
afterAll(() => renderer.close());

const structured = {
  from: { email: 'shop@example.com', name: 'Shop' },
  subject: 'Hi {{ name }}',
  text: 'Hello {{ name }}',
  html: '<p>{{ name }}</p>',
  amp: null,
  replyTo: null,
  headers: [],
  attachments: [],
};
const content = (id: string, overrides: Partial<typeof structured> = {}) => ({
  id,
  kind: 'structured',
  isTemplated: true,
  structured: { ...structured, ...overrides },
  globalSubstitutions: { name: 'friend' },
  raw: null,
  shared: new Map(),
});
const message = (id: string, contentId: string, substitutions: Record<string, unknown> | null) =>
  ({
    id,
    contentId,
    substitutions,
    recipient: `${id}@example.org`,
    recipientName: null,
    messageIdHeader: `<${id}@example.com>`,
    firstAttemptAt: new Date('2026-01-01T00:00:00Z'),
    trackOpens: false,
    trackClicks: false,
  }) as unknown as ClaimedMessage;

describe('rendering at delivery', () => {
  it('renders the templated messages of a batch in one request; a template that fails is a failure with its reason, never an exception', async () => {
    const contents = new Map([
      ['c1', content('c1')],
      ['c2', content('c2', { text: '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}' })],
    ]) as unknown as BatchContext['contents'];
    const claimed = [message('m1', 'c1', { name: '<Ada>' }), message('m2', 'c1', null), message('m3', 'c2', null)];
    const rendered = await renderTemplatedMessages(renderer, claimed, {
      contents,
      services: {} as BatchContext['services'],
    });
    const batch = { contents, rendered } as unknown as BatchContext;

    const composed = async (message: ClaimedMessage) => {
      const source = await renderMessage(message, batch);
      if (!('compose' in source)) throw new Error('expected parts to compose');
      return (await buildMime(source.compose.content, source.compose.parts, source.compose.message)).toString();
    };
    expect(await composed(claimed[0])).toMatch(/^Subject: Hi <Ada>$/m);
    expect(await composed(claimed[0])).toContain('<p>&lt;Ada&gt;</p>');
    expect(await composed(claimed[1])).toMatch(/^Subject: Hi friend$/m);
    expect(await renderMessage(claimed[2], batch)).toEqual({
      failure: 'the template could not be rendered: text_content: nested deeper than 300 levels (recursion?)',
    });
  });
});
