/**
 * What one render may use. Normal email templates stay far below every number; each one stops a way
 * a template could hold a worker or its memory: work (steps, loops, time), size (strings, lists,
 * output) and depth (recursion, nested data).
 */
export type TemplateLimits = {
  /** Nodes evaluated in one render. */
  maxSteps: number;
  /** Items of one loop or one `range()`. */
  maxLoopItems: number;
  /** Iterations of all loops of one render together (nested loops multiply). */
  maxIterations: number;
  /** Nested evaluation: expressions within expressions, macros calling macros. */
  maxDepth: number;
  /** Items of one list. */
  maxListItems: number;
  /**
   * A string (and the output) may be this long, or twice the template if that is longer. All blocks
   * of a render together (loops build their output from blocks) may produce four times as much.
   */
  minOutputChars: number;
  /** `{{ }}` and `{% %}` tags in one template. */
  maxTags: number;
  /** Nesting of substitution data. */
  maxDataDepth: number;
  /** Wall time of one render. */
  timeMs: number;
};

export const TEMPLATE_LIMITS: TemplateLimits = {
  maxSteps: 2_000_000,
  maxLoopItems: 10_000,
  maxIterations: 100_000,
  maxDepth: 300,
  maxListItems: 100_000,
  minOutputChars: 4_000_000,
  maxTags: 20_000,
  maxDataDepth: 64,
  timeMs: 1_000,
};

export function outputLimit(limits: TemplateLimits, sourceLength: number): number {
  return Math.max(limits.minOutputChars, 2 * sourceLength);
}

/** A template that does not compile (`syntax`) or cannot be rendered within the limits (`render`). */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly kind: 'syntax' | 'render' = 'render',
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** One line, short, and never more of a JavaScript error than its message. */
export function toTemplateError(error: unknown, kind: 'syntax' | 'render'): TemplateError {
  if (error instanceof TemplateError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError && /call stack/i.test(message)) return new TemplateError('nested too deeply', kind);
  if (error instanceof RangeError && /string length|array length/i.test(message))
    return new TemplateError('the output is too large', kind);
  return new TemplateError(message.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error', kind);
}
