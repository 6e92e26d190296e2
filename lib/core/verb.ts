import type { z } from 'zod';
import { authorize } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import type { ScopeRequirement } from '@/lib/auth/scopes';
import type { AppError } from '@/lib/shared/errors';
import type { VerbContext } from './context';
import { validateInput } from './shared/validation';

export type VerbDefinition<S extends z.ZodType, R> = {
  /** The permission this verb needs. `grep "scope:" lib/core` is the permission audit. */
  scope: ScopeRequirement;
  input: S;
  /**
   * Scopes the validated input asks for beyond `scope`, when an option reads or writes another
   * resource (`include_contacts` needs `contacts:read`); checked with `scope`, so the audit stays here.
   */
  alsoNeeds?: (input: z.output<S>) => readonly ScopeRequirement[];
  /** For domain scopes: the domains the validated input touches; each must be authorised. */
  domains?: (ctx: VerbContext, input: z.output<S>) => readonly string[] | Promise<readonly string[]>;
  run: (ctx: VerbContext, input: z.output<S>) => Promise<R>;
};

const CHECKED = Symbol('checked input');

/** What `authorize` found: the validated input, or the validation failure that `execute` reports. */
export type AuthorizedInput = { readonly [CHECKED]: { ok: true; input: unknown } | { ok: false; error: AppError } };

export type Verb<S extends z.ZodType, R> = ((ctx: VerbContext, input: unknown) => Promise<R>) & {
  scope: ScopeRequirement;
  input: S;
  /** The scope check alone, for entry points that must refuse before reading the body. */
  checkScope: (principal: Principal) => void;
  /**
   * Every permission check without the work: the scope, then, when the input is valid, the scopes
   * it also needs and the domains it touches. Invalid input is not refused here but by `execute`, so that an entry point can put a
   * step (idempotency) between "may this caller do it" and "is the request well formed".
   */
  authorize: (ctx: VerbContext, input: unknown) => Promise<AuthorizedInput>;
  /** The validation outcome (400) and then the work, for input that passed `authorize`. */
  execute: (ctx: VerbContext, authorized: AuthorizedInput) => Promise<R>;
};

/**
 * A core operation: scope check, then input validation, then the checks that need the input (further
 * scopes, domains), then the work. Every entry point calls verbs, so the order holds everywhere.
 */
export function defineVerb<S extends z.ZodType, R>(definition: VerbDefinition<S, R>): Verb<S, R> {
  const authorizeInput = async (ctx: VerbContext, rawInput: unknown): Promise<AuthorizedInput> => {
    authorize(ctx.principal, definition.scope);
    const validated = validateInput(definition.input, rawInput);
    if (validated.ok && definition.alsoNeeds)
      for (const scope of definition.alsoNeeds(validated.input)) authorize(ctx.principal, scope);
    if (validated.ok && definition.domains)
      authorize(ctx.principal, definition.scope, await definition.domains(ctx, validated.input));
    return { [CHECKED]: validated };
  };
  const execute = async (ctx: VerbContext, authorized: AuthorizedInput): Promise<R> => {
    const validated = authorized[CHECKED];
    if (!validated.ok) throw validated.error;
    return definition.run(ctx, validated.input as z.output<S>);
  };
  const verb = async (ctx: VerbContext, rawInput: unknown): Promise<R> =>
    execute(ctx, await authorizeInput(ctx, rawInput));
  return Object.assign(verb, {
    scope: definition.scope,
    input: definition.input,
    checkScope: (principal: Principal) => authorize(principal, definition.scope),
    authorize: authorizeInput,
    execute,
  });
}
