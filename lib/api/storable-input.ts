import { invalidInput, type AppError } from '@/lib/shared/errors';

/**
 * How deep a request body may nest. Real bodies need a handful of levels (substitutions with a few
 * nested objects); 32 leaves room for any template data while keeping every recursive consumer of
 * the value (zod, the template engine, the database's jsonb encoder) far from its stack limit.
 */
export const MAX_JSON_DEPTH = 32;

// With the `u` flag a surrogate only matches when it is not half of a pair.
const UNSTORABLE = /[\u0000\p{Surrogate}]/u;

/** Why a string cannot be stored as text (PostgreSQL refuses NUL; UTF-8 cannot encode a lone surrogate). */
function problemOf(text: string): string | null {
  if (!UNSTORABLE.test(text)) return null;
  return text.includes('\u0000') ? 'contains a NUL character' : 'contains an unpaired surrogate';
}

/** A path segment as the message shows it: a bad key is escaped, so the message itself is clean. */
const shown = (segment: string) => (problemOf(segment) ? JSON.stringify(segment).slice(1, -1) : segment);

function refusal(path: readonly string[], problem: string, isPathCut = false): AppError {
  const field = path.map(shown).join('.');
  const named = isPathCut ? `${field}.…` : field;
  return invalidInput(named ? `${named}: ${problem}` : `invalid request body: ${problem}`, field || undefined);
}

type Container = { value: object; depth: number; parent: Container | null; segment: string };

function pathOf(container: Container | null, last?: string): string[] {
  const path = last === undefined ? [] : [last];
  for (let at = container; at?.parent; at = at.parent) path.unshift(at.segment);
  return path;
}

/**
 * The 400 naming where a parsed JSON body holds what must not reach the database: a NUL or unpaired
 * surrogate in a string or key, or nesting deeper than MAX_JSON_DEPTH. Iterative, never recursive;
 * paths are worked out only for a body that fails the quick pass.
 */
export function findUnstorableJson(body: unknown): AppError | null {
  return isStorable(body) ? null : locateUnstorable(body);
}

function isStorable(body: unknown): boolean {
  if (typeof body === 'string') return problemOf(body) === null;
  if (typeof body !== 'object' || body === null) return true;
  const values: object[] = [body];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop()! as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > MAX_JSON_DEPTH) return false;
    const isArray = Array.isArray(value);
    for (const key in value) {
      if (!isArray && UNSTORABLE.test(key)) return false;
      const item = value[key];
      if (typeof item === 'string') {
        if (UNSTORABLE.test(item)) return false;
      } else if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

function locateUnstorable(body: unknown): AppError | null {
  if (typeof body === 'string') {
    const problem = problemOf(body);
    return problem ? refusal([], problem) : null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const stack: Container[] = [{ value: body, depth: 0, parent: null, segment: '' }];
  while (stack.length > 0) {
    const container = stack.pop()!;
    if (container.depth > MAX_JSON_DEPTH) {
      // The full path would be as deep as the nesting: name where it starts.
      const path = pathOf(container);
      return refusal(path.slice(0, 4), `nested deeper than ${MAX_JSON_DEPTH} levels`, path.length > 4);
    }
    const visit = (segment: string, item: unknown): AppError | null => {
      if (typeof item === 'string') {
        const problem = problemOf(item);
        return problem ? refusal(pathOf(container, segment), problem) : null;
      }
      if (typeof item === 'object' && item !== null)
        stack.push({ value: item, depth: container.depth + 1, parent: container, segment });
      return null;
    };
    if (Array.isArray(container.value)) {
      for (let index = 0; index < container.value.length; index++) {
        const error = visit(String(index), container.value[index]);
        if (error) return error;
      }
    } else {
      for (const [key, item] of Object.entries(container.value)) {
        const keyProblem = problemOf(key);
        const error = keyProblem ? refusal(pathOf(container, key), `the name ${keyProblem}`) : visit(key, item);
        if (error) return error;
      }
    }
  }
  return null;
}

/** The same rule for query parameters (names and values) and decoded path parameters. */
export function findUnstorableParameter(parameters: Record<string, readonly string[] | string>): AppError | null {
  for (const [name, values] of Object.entries(parameters)) {
    const nameProblem = problemOf(name);
    if (nameProblem) return refusal([name], `the name ${nameProblem}`);
    for (const value of typeof values === 'string' ? [values] : values) {
      const problem = problemOf(value);
      if (problem) return refusal([name], problem);
    }
  }
  return null;
}
