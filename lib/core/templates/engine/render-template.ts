import { Environment } from '@huggingface/jinja';
import type { CompiledTemplate } from './compile-template';
import {
  ArrayValue,
  BooleanValue,
  FloatValue,
  FunctionValue,
  IntegerValue,
  NullValue,
  ObjectValue,
  StringValue,
  UndefinedValue,
  type RuntimeValue,
  type Scope,
} from './jinja-runtime';
import { SandboxedInterpreter, type Deadline, type RenderMode } from './sandboxed-interpreter';
import { TEMPLATE_LIMITS, TemplateError, toTemplateError, type TemplateLimits } from './template-limits';

export type RenderOptions = { limits?: TemplateLimits; deadline?: Deadline };

const CONSTANTS = new Map<string, boolean | null>([
  ['true', true],
  ['false', false],
  ['none', null],
  ['True', true],
  ['False', false],
  ['None', null],
]);

/**
 * Renders with the given substitutions. Undefined names print nothing (MiniJinja's lenient mode);
 * `mode: 'html'` escapes every `{{ }}` value not marked `safe`. Throws a TemplateError on any
 * error or limit.
 */
export function renderTemplate(
  template: CompiledTemplate,
  context: Record<string, unknown>,
  mode: RenderMode,
  options: RenderOptions = {},
): string {
  const limits = options.limits ?? TEMPLATE_LIMITS;
  try {
    const interpreter = new SandboxedInterpreter(
      createScope(context, limits),
      mode,
      limits,
      template.sourceLength,
      options.deadline,
    );
    return interpreter.run(template.program as Parameters<SandboxedInterpreter['run']>[0]).value as string;
  } catch (error) {
    if (error instanceof Error && /^(Break|Continue)Control$/.test(error.constructor.name))
      throw new TemplateError('break or continue outside a loop');
    throw toTemplateError(error, 'render');
  }
}

/**
 * The globals are the constants and a `range` with a size limit; the package's others (`raise_exception`,
 * `strftime_now`) are left out. Substitutions are converted to the interpreter's values here, as data.
 */
function createScope(context: Record<string, unknown>, limits: TemplateLimits): Scope {
  const globals = new Environment();
  for (const [name, value] of CONSTANTS) globals.setVariable(name, toRuntimeValue(value, 0, limits));
  globals.setVariable('range', new FunctionValue((args) => range(args, limits.maxLoopItems)));
  const scope = new Environment(globals);
  for (const [name, value] of Object.entries(context)) {
    if (!CONSTANTS.has(name)) scope.setVariable(name, toRuntimeValue(value, 0, limits));
  }
  return scope;
}

function toRuntimeValue(value: unknown, depth: number, limits: TemplateLimits): RuntimeValue {
  switch (typeof value) {
    case 'string':
      return new StringValue(value);
    case 'number':
      return Number.isInteger(value) ? new IntegerValue(value) : new FloatValue(value);
    case 'boolean':
      return new BooleanValue(value);
    case 'object': {
      if (value === null) return new NullValue(null);
      if (depth >= limits.maxDataDepth)
        throw new TemplateError(`substitutions nested deeper than ${limits.maxDataDepth} levels`);
      if (Array.isArray(value)) return new ArrayValue(value.map((item) => toRuntimeValue(item, depth + 1, limits)));
      return new ObjectValue(
        new Map(Object.entries(value).map(([key, item]) => [key, toRuntimeValue(item, depth + 1, limits)])),
      );
    }
    default:
      return new UndefinedValue(undefined);
  }
}

/** Python's range(), refused beyond the loop limit before any item is made. */
function range(args: RuntimeValue[], maxItems: number): RuntimeValue {
  if (args.length < 1 || args.length > 3 || args.some((arg) => !(arg instanceof IntegerValue)))
    throw new TemplateError('range() takes one to three whole numbers');
  const numbers = args.map((arg) => arg.value as number);
  const [start, stop, step] = numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
  if (step === 0) throw new TemplateError('range() step must not be zero');
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > maxItems) throw new TemplateError(`range of ${count} items (limit ${maxItems})`);
  return new ArrayValue(Array.from({ length: count }, (_, index) => new IntegerValue(start + index * step)));
}
