import type {
  RenderFailure,
  RenderJob,
  TemplateRenderer,
  TemplateSource,
} from '@/lib/core/templates/engine/template-renderer';
import type { StructuredContent } from '@/lib/db/schema';
import { AppError, invalidInput } from '@/lib/shared/errors';

export type TemplatedParts = Pick<StructuredContent, 'subject' | 'text' | 'html' | 'amp'>;
export type RenderedParts = TemplatedParts;
export type RenderedContent = { ok: true; parts: RenderedParts } | { ok: false; field: string; failure: RenderFailure };
type Substitutions = Record<string, unknown> | null | undefined;

/** Trial renders of one send together (every recipient, every part) may take this long. */
const ACCEPTANCE_BUDGET_MS = 5_000;

/** The parts that are templates when a send has substitutions, the API field of each, and how its output is escaped. */
const PARTS = [
  { key: 'subject', field: 'subject', mode: 'text' },
  { key: 'text', field: 'text_content', mode: 'text' },
  { key: 'html', field: 'html_content', mode: 'html' },
  { key: 'amp', field: 'amp_content', mode: 'html' },
] as const;

/** A recipient's template data: their own substitutions over the send's global ones, key by key. */
export function substitutionContext(globals: Substitutions, own: Substitutions): Record<string, unknown> {
  return { ...(globals ?? {}), ...(own ?? {}) };
}

/**
 * Renders each item's parts with its context, in one batch for the renderer (each distinct
 * template is sent once). Parts that are null stay null.
 */
export async function renderContents(
  renderer: TemplateRenderer,
  items: { parts: TemplatedParts; context: Record<string, unknown> }[],
  options: { stopOnError?: boolean; budgetMs?: number } = {},
): Promise<RenderedContent[]> {
  const templates: (TemplateSource & { field: string })[] = [];
  const indexes = new Map<string, number>();
  const layouts = items.map(({ parts }) => PARTS.filter((part) => parts[part.key] !== null));
  const jobs: RenderJob[] = items.map(({ parts, context }, item) => ({
    context,
    templates: layouts[item].map(({ key, field, mode }) => {
      const source = parts[key]!;
      const cacheKey = `${mode}\u0000${source}`;
      if (!indexes.has(cacheKey)) indexes.set(cacheKey, templates.push({ source, mode, field }) - 1);
      return indexes.get(cacheKey)!;
    }),
  }));
  const results = await renderer.render({
    templates: templates.map(({ source, mode }) => ({ source, mode })),
    jobs,
    ...options,
  });
  return results.map((result, item): RenderedContent => {
    if (!result.ok) {
      const { failure } = result;
      const field =
        failure.template === null
          ? layouts[item].map((part) => part.field).join(', ')
          : templates[failure.template].field;
      return { ok: false, field, failure };
    }
    const parts: RenderedParts = { subject: '', text: null, html: null, amp: null };
    layouts[item].forEach(({ key }, position) => (parts[key] = result.outputs[position]));
    return { ok: true, parts };
  });
}

/**
 * Acceptance: compiles every templated part and renders it for every recipient's data, so that a
 * template error or limit is a 400 naming the field (and the recipient, for their own data), never a
 * failure in the worker. Recipients without substitutions of their own share one trial render.
 */
export async function assertContentRenders(
  renderer: TemplateRenderer,
  parts: TemplatedParts,
  globals: Substitutions,
  recipients: { email?: string; substitutions?: Substitutions }[],
): Promise<RenderedParts> {
  const distinct = new Map<string, { email: string | null; context: Record<string, unknown> }>();
  for (const recipient of recipients.length ? recipients : [{}]) {
    const key = JSON.stringify(recipient.substitutions ?? null);
    if (!distinct.has(key))
      distinct.set(key, {
        email: recipient.substitutions ? (recipient.email ?? null) : null,
        context: substitutionContext(globals, recipient.substitutions),
      });
  }
  const trials = [...distinct.values()];
  let results: RenderedContent[];
  try {
    results = await renderContents(
      renderer,
      trials.map(({ context }) => ({ parts, context })),
      { stopOnError: true, budgetMs: ACCEPTANCE_BUDGET_MS },
    );
  } catch {
    throw new AppError('unavailable', 'templates cannot be rendered right now; try again later');
  }
  const index = results.findIndex((result) => !result.ok);
  // The first recipient's message, for callers that look at what would be sent (campaign preflight).
  if (index === -1) return (results[0] as Extract<RenderedContent, { ok: true }>).parts;
  const { field, failure } = results[index] as Extract<RenderedContent, { ok: false }>;
  if (failure.kind === 'syntax')
    throw invalidInput(`${field}: template syntax error: ${failure.message}`, field.split(',')[0]);
  const recipient = trials[index].email ? ` for recipient ${trials[index].email}` : '';
  throw invalidInput(`${field}: template error${recipient}: ${failure.message}`, field.split(',')[0]);
}
