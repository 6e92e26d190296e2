import type { z } from 'zod';
import { AppError } from '@/lib/shared/errors';

/** One readable line for the first problem zod found, naming the field: `scopes.2: unknown scope`. */
function describeZodError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  const field = issue.path.length ? issue.path.map(String).join('.') : undefined;
  let message = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required';
  if (issue.code === 'unrecognized_keys') message = `unknown field(s) ${issue.keys.join(', ')}`;
  return { message: field ? `${field}: ${message}` : message, field };
}

/** The input as the schema reads it, or the 400 that names the first problem. */
export function validateInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; input: z.output<S> } | { ok: false; error: AppError } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, input: result.data };
  const { message, field } = describeZodError(result.error);
  return { ok: false, error: new AppError('invalid_input', message, field) };
}
