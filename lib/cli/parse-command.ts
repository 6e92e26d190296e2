import { parseArgs } from 'node:util';

/** Exit codes: 0 done, 1 bad input or conflict, 2 usage error. */
export class UsageError extends Error {}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** A command's options and exactly `positionalCount` arguments, or the usage error that says what is wrong. */
export function parse<O extends Options>(args: string[], options: O, positionalCount = 0) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: positionalCount > 0, strict: true });
    if (parsed.positionals.length !== positionalCount)
      throw new UsageError(`expected ${positionalCount} argument(s), got ${parsed.positionals.length}`);
    return parsed;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}
