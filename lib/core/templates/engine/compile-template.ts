import { parse, tokenize } from '@huggingface/jinja';
import { TEXT_NODE, type Node } from './jinja-runtime';
import { TEMPLATE_LIMITS, TemplateError, toTemplateError, type TemplateLimits } from './template-limits';

export type CompiledTemplate = { program: Node; sourceLength: number };

type Token = ReturnType<typeof tokenize>[number];

const TAG_NAMES: Record<string, string> = { '{': 'an expression ({{)', '%': 'a statement ({%)', '#': 'a comment ({#)' };

/** Parses Jinja syntax (MiniJinja defaults: no block trimming; the content is kept as written). */
export function compileTemplate(source: string, limits: TemplateLimits = TEMPLATE_LIMITS): CompiledTemplate {
  try {
    return { program: parse(splitTemplate(source, limits.maxTags)) as unknown as Node, sourceLength: source.length };
  } catch (error) {
    // The parser reads past the last token when a block is left open.
    if (error instanceof TypeError && /properties of undefined/.test(error.message))
      throw new TemplateError('unexpected end of the template (is a block not closed?)', 'syntax');
    throw toTemplateError(error, 'syntax');
  }
}

/**
 * The package's lexer copies text one character at a time and runs a whitespace regex that is
 * quadratic on long runs of spaces, so text between tags is cut out here and only tags, with their
 * whitespace made harmless, go through it.
 */
function splitTemplate(source: string, maxTags: number): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  let isTrimmingNext = false;
  let tags = 0;
  while (position <= source.length) {
    const open = findOpening(source, position);
    let text = source.slice(position, open === -1 ? source.length : open);
    if (isTrimmingNext) text = text.trimStart();
    if (open !== -1 && source[open + 2] === '-') text = text.trimEnd();
    if (text) tokens.push({ type: TEXT_NODE, value: text } as Token);
    if (open === -1) break;
    if (++tags > maxTags) throw new TemplateError(`more than ${maxTags} tags`, 'syntax');
    const kind = source[open + 1];
    const close = findClosing(source, open, kind);
    if (close === -1)
      throw new TemplateError(`${TAG_NAMES[kind]} opened on line ${lineOf(source, open)} is not closed`, 'syntax');
    const tag = source.slice(open, close);
    isTrimmingNext = tag.at(-3) === '-';
    if (kind !== '#') {
      try {
        tokens.push(...tokenize(normalizeWhitespace(tag)));
      } catch (error) {
        throw new TemplateError(`${toTemplateError(error, 'syntax').message} (line ${lineOf(source, open)})`, 'syntax');
      }
    }
    position = close;
  }
  return tokens;
}

function findOpening(source: string, from: number): number {
  for (let index = source.indexOf('{', from); index !== -1; index = source.indexOf('{', index + 1)) {
    const next = source[index + 1];
    if (next === '{' || next === '%' || next === '#') return index;
  }
  return -1;
}

/** The index after the tag's closing delimiter, skipping quoted strings (and nested braces in `{{ }}`). */
function findClosing(source: string, open: number, kind: string): number {
  if (kind === '#') {
    const end = source.indexOf('#}', open + 2);
    return end === -1 ? -1 : end + 2;
  }
  let depth = 0;
  let quote: string | null = null;
  for (let index = open + 2; index < source.length; index++) {
    const char = source[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (kind === '%') {
      if (char === '%' && source[index + 1] === '}') return index + 2;
    } else if (char === '}' && source[index + 1] === '}' && depth === 0) {
      return index + 2;
    } else if (char === '{') {
      depth++;
    } else if (char === '}') {
      depth--;
    }
  }
  return -1;
}

/** Runs of whitespace become one space, and whitespace inside strings becomes escapes: same tokens, no runs. */
function normalizeWhitespace(tag: string): string {
  return tag.replace(/("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*')|\s+/g, (match, quoted: string | undefined) =>
    quoted
      ? quoted.replace(/\\[\s\S]|\s/g, (part) =>
          part.length === 2 ? part : `\\u${part.charCodeAt(0).toString(16).padStart(4, '0')}`,
        )
      : ' ',
  );
}

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let at = source.indexOf('\n'); at !== -1 && at < index; at = source.indexOf('\n', at + 1)) line++;
  return line;
}
