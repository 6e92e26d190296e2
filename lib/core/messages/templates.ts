import nunjucks from 'nunjucks';
import { invalidInput } from '@/lib/shared/errors';

// Jinja syntax (MiniJinja on AhaSend's side): `{{ name }}`. HTML parts escape values; undefined names render empty.
const plain = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
const html = new nunjucks.Environment(null, { autoescape: true, throwOnUndefined: false });

export type TemplateKind = 'plain' | 'html';

export function compileTemplate(source: string, kind: TemplateKind): nunjucks.Template {
  return new nunjucks.Template(source, kind === 'html' ? html : plain, undefined, true);
}

/** Compiles at acceptance so that a syntax error is a 400 for the caller, never a failure in the worker. */
export function assertTemplateCompiles(source: string | null | undefined, kind: TemplateKind, field: string): void {
  if (!source) return;
  try {
    compileTemplate(source, kind);
  } catch (error) {
    const detail = String((error as Error).message ?? error).replace(/\s+/g, ' ').replace(/^\(unknown path\)\s*/, '').slice(0, 300);
    throw invalidInput(`${field}: template syntax error: ${detail}`, field);
  }
}

export function renderTemplate(template: nunjucks.Template, context: Record<string, unknown>): string {
  return template.render(context);
}
