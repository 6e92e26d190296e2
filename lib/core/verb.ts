import type { z } from 'zod';
import { authorize } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import type { ScopeRequirement } from '@/lib/auth/scopes';
import type { VerbContext } from './context';
import { parseInput } from './shared/validation';

export type VerbDefinition<S extends z.ZodType, R> = {
  /** The permission this verb needs. `grep "scope:" lib/core` is the permission audit. */
  scope: ScopeRequirement;
  input: S;
  /** For domain scopes: the domains the validated input touches; each must be authorised. */
  domains?: (ctx: VerbContext, input: z.output<S>) => readonly string[] | Promise<readonly string[]>;
  run: (ctx: VerbContext, input: z.output<S>) => Promise<R>;
};

export type Verb<S extends z.ZodType, R> = ((ctx: VerbContext, input: unknown) => Promise<R>) & {
  scope: ScopeRequirement;
  input: S;
  /** The scope check alone, for entry points that must refuse before reading the body. */
  checkScope: (principal: Principal) => void;
};

/**
 * A core operation: scope check, then input validation, then the domain check that needs the input,
 * then the work. Every entry point calls verbs, so the order holds everywhere.
 */
export function defineVerb<S extends z.ZodType, R>(definition: VerbDefinition<S, R>): Verb<S, R> {
  const verb = async (ctx: VerbContext, rawInput: unknown): Promise<R> => {
    authorize(ctx.principal, definition.scope);
    const input = parseInput(definition.input, rawInput);
    if (definition.domains) authorize(ctx.principal, definition.scope, await definition.domains(ctx, input));
    return definition.run(ctx, input);
  };
  return Object.assign(verb, {
    scope: definition.scope,
    input: definition.input,
    checkScope: (principal: Principal) => authorize(principal, definition.scope),
  });
}
