import { Environment, Interpreter } from '@huggingface/jinja';

// Why this engine: it interprets Jinja in its own value model (MiniJinja's syntax, as AhaSend documents
// it) so no template reaches a JavaScript object; nunjucks compiles to JavaScript that can, liquidjs and
// twing speak other dialects, and minijinja-js (WASM) grows memory no worker limit bounds.

// Pinned to exactly 0.5.11 (package.json): the package exports no value classes, so the sandbox takes
// them from values it makes, and it overrides Interpreter methods its types call private. Move the pin
// only when tests/lib/core/templates/engine pass on the new version.

/** A value of the interpreter's own model (never a JavaScript object of ours). */
export type RuntimeValue = ReturnType<Interpreter['evaluate']>;
/** A node of a parsed template. */
export type Node = NonNullable<Parameters<Interpreter['evaluate']>[0]>;
export type Scope = Environment;
export type NativeFunction = (args: RuntimeValue[], scope: Scope) => RuntimeValue;

type ValueClass<T> = new (value: T) => Extract<RuntimeValue, { value: T }>;

const probe = new Environment();
let probes = 0;
const classOf = <T>(sample: unknown) => probe.set(`probe${probes++}`, sample).constructor as ValueClass<T>;

export const StringValue = classOf<string>('');
export const IntegerValue = classOf<number>(1);
export const FloatValue = classOf<number>(0.5);
export const BooleanValue = classOf<boolean>(true);
export const NullValue = classOf<null>(null);
export const UndefinedValue = classOf<undefined>(undefined);
export const ArrayValue = classOf<RuntimeValue[]>([]);
export const ObjectValue = classOf<Map<string, RuntimeValue>>({});
export const FunctionValue = classOf<NativeFunction>(() => null);
export const NamespaceValue = (probe.lookupVariable('namespace').value as NativeFunction)([], probe)
  .constructor as ValueClass<Map<string, RuntimeValue>>;

/** A string that HTML output prints as it is: template text, rendered blocks, `safe` and `escape` results. */
export class SafeStringValue extends StringValue {}

/** Interpreter methods that TypeScript calls private; the sandbox replaces them on its instances. */
export type InterpreterInternals = {
  evaluateBlock(statements: Node[], scope: Scope): RuntimeValue;
  applyFilter(operand: RuntimeValue, filter: Node, scope: Scope): RuntimeValue;
  evaluateBinaryExpression(node: BinaryNode, scope: Scope): RuntimeValue;
  evaluateMemberExpression(node: MemberNode, scope: Scope): RuntimeValue;
};

export const baseInterpreter = Interpreter.prototype as unknown as InterpreterInternals;

// The shapes of the AST nodes the sandbox reads (the package does not export its AST classes).
export type IdentifierNode = Node & { type: 'Identifier'; value: string };
export type CallNode = Node & { type: 'CallExpression'; callee: Node; args: Node[] };
export type BinaryNode = Node & { type: 'BinaryExpression'; operator: { value: string }; left: Node; right: Node };
export type MemberNode = Node & { type: 'MemberExpression'; object: Node; property: Node; computed: boolean };
export type ForNode = Node & { type: 'For'; iterable: Node & { type: string; lhs?: Node } };
export type TextNode = Node & { type: typeof TEXT_NODE; value: string };

/**
 * Template text reaches the parser as comment tokens (see compile-template.ts), so that text is a node
 * of its own, told apart from `{{ "literal" }}`; real comments are dropped before parsing.
 */
export const TEXT_NODE = 'Comment';

/** A value computed already, handed back to the base interpreter in place of the node it came from. */
export const PRECOMPUTED_NODE = 'MailsteadPrecomputed';
export type PrecomputedNode = Node & { type: typeof PRECOMPUTED_NODE; computed: RuntimeValue };

export function precomputed(value: RuntimeValue): Node {
  return { type: PRECOMPUTED_NODE, computed: value } as PrecomputedNode;
}
