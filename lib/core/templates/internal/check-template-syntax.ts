import { compileTemplate } from '@/lib/core/templates/engine/compile-template';
import { TemplateError } from '@/lib/core/templates/engine/template-limits';
import { invalidInput } from '@/lib/shared/errors';

type Parts = {
  subject?: string | null;
  html_content?: string | null;
  text_content?: string | null;
  preheader?: string | null;
};

const FIELDS = ['subject', 'preheader', 'html_content', 'text_content'] as const;
// Errors of a source cut short; a prefix failing only with these is fine so far.
const END_OF_SOURCE = /unexpected end of the template|is not closed/;

/**
 * Refuses a draft part that is not a valid template, with a 400 naming the field and the line. Only
 * parsing happens here (linear, bounded by the size and tag limits); nothing of the template runs
 * until a send renders it in the workers, where hostile content meets the render limits.
 */
export function checkTemplateSyntax(parts: Parts): void {
  for (const field of FIELDS) {
    const source = parts[field];
    if (!source) continue;
    const failure = syntaxError(source);
    if (failure) throw invalidInput(`${field}: template syntax error: ${failure}`, field);
  }
}

/** The parser's message with the line it is about, or null when the source compiles. */
export function syntaxError(source: string): string | null {
  const message = compileError(source);
  if (message === null || /\bline \d+/.test(message)) return message;
  const line = lineOfError(source);
  return line === null ? message : `${message} (line ${line})`;
}

function compileError(source: string): string | null {
  try {
    compileTemplate(source);
    return null;
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}

/**
 * The parser does not say where it failed. Cut the source after each tag's closing delimiter: the
 * shortest cut that already fails, other than by ending early, ends with the offending tag. Failing
 * is monotone in the cut, so a binary search needs about 15 parses even at the tag limit.
 */
function lineOfError(source: string): number | null {
  const cuts: number[] = [];
  for (const match of source.matchAll(/[}%]\}/g)) cuts.push(match.index + 2);
  let low = 0;
  let high = cuts.length - 1;
  let found: number | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const message = compileError(source.slice(0, cuts[middle]));
    if (message !== null && !END_OF_SOURCE.test(message)) {
      found = cuts[middle];
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  if (found === null) return source.includes('\n') ? null : 1;
  return source.slice(0, found).split('\n').length;
}
