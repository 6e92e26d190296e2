import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { sendMessage } from '@/lib/core/messages/send-message';
import { syntaxError } from '@/lib/core/templates/internal/check-template-syntax';
import { createTemplate } from '@/lib/core/templates/create-template';
import { deleteTemplate } from '@/lib/core/templates/delete-template';
import { getTemplate } from '@/lib/core/templates/get-template';
import { getTemplateVersion } from '@/lib/core/templates/get-template-version';
import { listTemplateVersions } from '@/lib/core/templates/list-template-versions';
import { listTemplates } from '@/lib/core/templates/list-templates';
import { publishTemplate } from '@/lib/core/templates/publish-template';
import { writeTemplate } from '@/lib/core/templates/internal/queries';
import { updateTemplate } from '@/lib/core/templates/update-template';
import { messageContents, messages } from '@/lib/db/schema';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The template verbs, and sending with a template, on an in-memory PGlite. */
let services: TestServices;
let principal: Principal;
let accountId: string;
let other: Principal;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  ({ principal: other } = await newAccount(services, 'Other'));
  const domain = await createDomain(as(services, principal), { domain: 'acme.example' });
  services.dns.publishRecords(domain.dns_records);
  expect((await checkDomainDns(as(services, principal), { domain: 'acme.example' })).dns_valid).toBe(true);
}, 60_000);

afterAll(() => services?.close());

const ctx = (who: Principal = principal) => as(services, who);
const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string; field?: string; headers?: Record<string, string> },
  );
  expect(error, 'expected the verb to refuse').not.toBeNull();
  return error!;
};
const newTemplate = (body: Record<string, unknown> = {}) =>
  createTemplate(ctx(), {
    name: 'Welcome',
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hello {{ first_name }}</p>',
    text_content: 'Hello {{ first_name }}',
    ...body,
  });

describe('template syntax', () => {
  it.each([
    ['a\n{{ name', /line 2/],
    ['line one\nline two {{ 1 + }}', /line 2/],
    ['one\ntwo\n{{ a b }}', /line 3/],
    ['x\n{% endif %}', /line 2/],
    ['{% if a %}open', /not closed/],
  ])('%j is refused with the line', (source, expected) => {
    expect(syntaxError(source)).toMatch(expected);
  });

  it('accepts valid templates, hostile ones included (they meet the render limits when sent)', () => {
    expect(syntaxError('Hello {{ first_name | upper }} {% for x in items %}{{ x }}{% endfor %}')).toBeNull();
    expect(syntaxError('{{ "".constructor.constructor("return process")() }}')).toBeNull();
  });
});

describe('templates', () => {
  it('creates a draft, reads it, lists it by kind, edits it partially and deletes it', async () => {
    const template = await newTemplate({ kind: 'campaign' });
    expect(template).toMatchObject({
      object: 'template',
      name: 'Welcome',
      kind: 'campaign',
      latest_version: null,
      revision: 1,
      subject: 'Hi {{ first_name }}',
    });
    expect(await getTemplate(ctx(), { template_id: template.id })).toEqual(template);
    expect((await listTemplates(ctx(), { kind: 'campaign' })).items.map((item) => item.id)).toContain(template.id);
    expect((await listTemplates(ctx(), { kind: 'transactional' })).items.map((item) => item.id)).not.toContain(
      template.id,
    );
    const edited = await updateTemplate(ctx(), { template_id: template.id, text_content: null, name: 'Renamed' });
    // Cleared, the text part is made from the HTML again.
    expect(edited).toMatchObject({
      name: 'Renamed',
      text_content: 'Hello {{ first_name }}',
      html_content: '<p>Hello {{ first_name }}</p>',
      revision: 2,
    });
    await deleteTemplate(ctx(), { template_id: template.id });
    expect((await rejection(getTemplate(ctx(), { template_id: template.id }))).kind).toBe('not_found');
    expect((await rejection(deleteTemplate(ctx(), { template_id: template.id }))).kind).toBe('not_found');
  });

  it('refuses a syntax error with 400 naming the field and the line', async () => {
    const error = await rejection(newTemplate({ html_content: '<p>\n{{ first_name }</p>' }));
    expect(error).toMatchObject({ kind: 'invalid_input', field: 'html_content' });
    expect(error.message).toMatch(/^html_content: template syntax error: .*line 2/);
    const template = await newTemplate();
    expect((await rejection(updateTemplate(ctx(), { template_id: template.id, subject: '{% if %}' }))).field).toBe(
      'subject',
    );
  });

  it('publishes consecutive immutable versions; editing the draft afterwards changes none of them', async () => {
    const template = await newTemplate();
    expect(await publishTemplate(ctx(), { template_id: template.id })).toMatchObject({
      object: 'template_version',
      version: 1,
      subject: 'Hi {{ first_name }}',
    });
    await updateTemplate(ctx(), { template_id: template.id, subject: 'Second' });
    expect((await publishTemplate(ctx(), { template_id: template.id })).version).toBe(2);
    await updateTemplate(ctx(), { template_id: template.id, subject: 'Draft only' });
    expect((await getTemplateVersion(ctx(), { template_id: template.id, version: 1 })).subject).toBe(
      'Hi {{ first_name }}',
    );
    expect((await getTemplateVersion(ctx(), { template_id: template.id, version: 2 })).subject).toBe('Second');
    expect((await listTemplateVersions(ctx(), { template_id: template.id })).items.map((item) => item.version)).toEqual(
      [2, 1],
    );
    expect(await getTemplate(ctx(), { template_id: template.id })).toMatchObject({
      latest_version: 2,
      subject: 'Draft only',
    });
    expect((await rejection(getTemplateVersion(ctx(), { template_id: template.id, version: 3 }))).kind).toBe(
      'not_found',
    );
  });

  it('publishing needs a subject and a body', async () => {
    const template = await createTemplate(ctx(), { name: 'Empty' });
    expect(await rejection(publishTemplate(ctx(), { template_id: template.id }))).toMatchObject({
      kind: 'invalid_input',
      field: 'subject',
    });
    await updateTemplate(ctx(), { template_id: template.id, subject: 'S' });
    expect(await rejection(publishTemplate(ctx(), { template_id: template.id }))).toMatchObject({
      kind: 'invalid_input',
      field: 'html_content',
    });
  });

  it('a stale revision is 409 and changes nothing', async () => {
    const template = await newTemplate();
    await updateTemplate(ctx(), { template_id: template.id, name: 'A', revision: 1 });
    const error = await rejection(updateTemplate(ctx(), { template_id: template.id, name: 'B', revision: 1 }));
    expect(error.kind).toBe('conflict');
    expect(error.headers?.['Retry-After']).toBeUndefined();
    expect((await getTemplate(ctx(), { template_id: template.id })).name).toBe('A');
  });

  it('a write that keeps colliding is retried, then refused with 409 and Retry-After; other errors are not retried', async () => {
    const template = await newTemplate();
    let attempts = 0;
    const lockTimeout = Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
    const busy = await rejection(
      writeTemplate(services.db, accountId, template.id, async () => {
        attempts++;
        throw lockTimeout;
      }),
    );
    expect(busy).toMatchObject({ kind: 'conflict', headers: { 'Retry-After': '1' } });
    expect(attempts).toBe(3);
    attempts = 0;
    expect(
      await writeTemplate(services.db, accountId, template.id, async () => {
        if (++attempts < 3) throw Object.assign(new Error('could not serialize access'), { cause: { code: '40001' } });
        return 'done';
      }),
    ).toBe('done');
    attempts = 0;
    await rejection(
      writeTemplate(services.db, accountId, template.id, async () => {
        attempts++;
        throw new Error('boom');
      }),
    );
    expect(attempts).toBe(1);
  });

  it('concurrent publishes get consecutive versions', async () => {
    const template = await newTemplate();
    const published = await Promise.all(
      Array.from({ length: 8 }, () => publishTemplate(ctx(), { template_id: template.id })),
    );
    expect(published.map((version) => version.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('scopes and tenancy: another account sees 404; read-only keys cannot write', async () => {
    const template = await newTemplate();
    expect((await rejection(getTemplate(ctx(other), { template_id: template.id }))).kind).toBe('not_found');
    expect((await rejection(updateTemplate(ctx(other), { template_id: template.id, name: 'x' }))).kind).toBe(
      'not_found',
    );
    expect((await rejection(publishTemplate(ctx(other), { template_id: template.id }))).kind).toBe('not_found');
    const reader = keyPrincipal(accountId, ['templates:read']);
    expect((await getTemplate(ctx(reader), { template_id: template.id })).id).toBe(template.id);
    expect((await rejection(createTemplate(ctx(reader), { name: 'x' }))).kind).toBe('forbidden');
    expect(
      (await rejection(deleteTemplate(ctx(keyPrincipal(accountId, ['templates:write'])), { template_id: template.id })))
        .kind,
    ).toBe('forbidden');
  });
});

describe('sending with a template', () => {
  const send = (body: Record<string, unknown>, who: Principal = principal) =>
    sendMessage(ctx(who), {
      from: { email: 'news@acme.example' },
      recipients: [{ email: 'a@example.org', substitutions: { first_name: 'Ada' } }],
      ...body,
    });

  it('stores the published version as a template rendered per recipient', async () => {
    const template = await newTemplate();
    await publishTemplate(ctx(), { template_id: template.id });
    await updateTemplate(ctx(), { template_id: template.id, subject: 'Unpublished {{ first_name }}' });
    const result = await send({ template_id: template.id });
    expect(result.data[0].status).toBe('queued');
    const [row] = await services.db.select().from(messages).where(eq(messages.messageIdHeader, result.data[0].id!));
    const [content] = await services.db.select().from(messageContents).where(eq(messageContents.id, row.contentId));
    expect(content.isTemplated).toBe(true);
    expect(content.structured).toMatchObject({ subject: 'Hi {{ first_name }}', html: '<p>Hello {{ first_name }}</p>' });
    expect(row.substitutions).toEqual({ first_name: 'Ada' });
  });

  it('sends a given version, and renders a template even without substitutions', async () => {
    const template = await newTemplate();
    await publishTemplate(ctx(), { template_id: template.id });
    await updateTemplate(ctx(), { template_id: template.id, subject: 'Two' });
    await publishTemplate(ctx(), { template_id: template.id });
    const result = await send({
      template_id: template.id,
      template_version: 1,
      recipients: [{ email: 'b@example.org' }],
    });
    const [row] = await services.db.select().from(messages).where(eq(messages.messageIdHeader, result.data[0].id!));
    const [content] = await services.db.select().from(messageContents).where(eq(messageContents.id, row.contentId));
    expect(content).toMatchObject({ isTemplated: true, globalSubstitutions: {} });
    expect(content.structured).toMatchObject({ subject: 'Hi {{ first_name }}' });
  });

  it.each([
    ['unpublished', async () => ({ template_id: (await newTemplate()).id }), /template_id: .*no published version/],
    ['unknown', async () => ({ template_id: '0190a0a0-0000-7000-8000-000000000000' }), /template_id: no template/],
    ['not a uuid', async () => ({ template_id: 'nope' }), /template_id: no template/],
    [
      'with subject',
      async () => ({ template_id: (await newTemplate()).id, subject: 'x' }),
      /template_id: give either template_id or subject/,
    ],
    [
      'with text_content',
      async () => ({ template_id: (await newTemplate()).id, text_content: 'x' }),
      /text_content, not both/,
    ],
    [
      'version too high',
      async () => {
        const template = await newTemplate();
        await publishTemplate(ctx(), { template_id: template.id });
        return { template_id: template.id, template_version: 5 };
      },
      /template_version: .*no version 5/,
    ],
    [
      'version without template',
      async () => ({ subject: 's', text_content: 't', template_version: 1 }),
      /template_version: is only allowed with template_id/,
    ],
    ['neither', async () => ({ text_content: 't' }), /^subject: is required/],
  ])('%s is a 400 naming the problem', async (_name, body, expected) => {
    const error = await rejection(send(await body()));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(expected);
  });

  it("another account's template is not sendable", async () => {
    const template = await createTemplate(ctx(other), { name: 'Theirs', subject: 's', text_content: 't' });
    await publishTemplate(ctx(other), { template_id: template.id });
    expect((await rejection(send({ template_id: template.id }))).message).toMatch(/template_id: no template/);
  });

  it('a deleted template is not sendable', async () => {
    const template = await newTemplate();
    await publishTemplate(ctx(), { template_id: template.id });
    await deleteTemplate(ctx(), { template_id: template.id });
    expect((await rejection(send({ template_id: template.id }))).message).toMatch(/template_id: no template/);
  });

  it('a hostile template is refused at sending by the render limits', async () => {
    const template = await createTemplate(ctx(), {
      name: 'Loop',
      subject: 's',
      text_content: '{% for i in range(1000000000) %}x{% endfor %}',
    });
    await publishTemplate(ctx(), { template_id: template.id });
    const error = await rejection(send({ template_id: template.id }));
    expect(error).toMatchObject({ kind: 'invalid_input' });
    expect(error.message).toMatch(/^text_content: template error/);
  });
});
