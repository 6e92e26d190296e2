import type { z } from 'zod';
import { AppError } from '@/lib/shared/errors';

/** One readable line for the first problem zod found, naming the field: `scopes.2: unknown scope`. */
export function describeZodError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  const field = issue.path.length ? issue.path.map(String).join('.') : undefined;
  let message = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required';
  if (issue.code === 'unrecognized_keys') message = `unknown field(s) ${issue.keys.join(', ')}`;
  return { message: field ? `${field}: ${message}` : message, field };
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const { message, field } = describeZodError(result.error);
    throw new AppError('invalid_input', message, field);
  }
  return result.data;
}
