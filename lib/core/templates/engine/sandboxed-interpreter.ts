import { Interpreter } from '@huggingface/jinja';
import {
  ArrayValue,
  baseInterpreter,
  BooleanValue,
  FloatValue,
  FunctionValue,
  IntegerValue,
  NamespaceValue,
  NullValue,
  ObjectValue,
  precomputed,
  PRECOMPUTED_NODE,
  SafeStringValue,
  StringValue,
  TEXT_NODE,
  UndefinedValue,
  type BinaryNode,
  type CallNode,
  type ForNode,
  type IdentifierNode,
  type InterpreterInternals,
  type MemberNode,
  type Node,
  type PrecomputedNode,
  type RuntimeValue,
  type Scope,
  type TextNode,
} from './jinja-runtime';
import { escapeHtml } from '../../../shared/html';
import { outputLimit, TemplateError, type TemplateLimits } from './template-limits';

export type RenderMode = 'text' | 'html';
/** A `performance.now()` time by which a render must end besides its own time limit (a batch's budget), and what to say when it passes. */
export type Deadline = { at: number; reason: string };

/** Nodes whose output is rendered text already (never escaped again); every other node in a block is a `{{ }}` value. */
const STATEMENTS = new Set(['If', 'For', 'Set', 'Macro', 'CallStatement', 'FilterStatement', 'Break', 'Continue']);
/** Filters whose arguments can make the result much larger than the input: checked before they run. */
const AMPLIFYING_FILTERS = new Set(['join', 'indent', 'tojson', 'replace']);
const SCALARS = [StringValue, IntegerValue, FloatValue, BooleanValue, NullValue, UndefinedValue];

/**
 * The package's interpreter with every limit of one render enforced as it runs (steps, time, loop
 * sizes, string and list sizes, nesting) and HTML escaping of `{{ }}` values in HTML mode. Values
 * stay in the interpreter's own model: attributes are looked up in maps, so nothing reaches a
 * JavaScript object, prototype or global; functions cannot be printed or concatenated.
 */
export class SandboxedInterpreter extends Interpreter {
  private steps = 0;
  private depth = 0;
  private iterations = 0;
  private produced = 0;
  private readonly loopSources = new WeakSet<Node>();
  private readonly deadline: Deadline;
  private readonly maxChars: number;

  constructor(
    scope: Scope,
    private readonly mode: RenderMode,
    private readonly limits: TemplateLimits,
    sourceLength: number,
    deadline?: Deadline,
  ) {
    super(scope);
    const own = { at: performance.now() + limits.timeMs, reason: `rendering took longer than ${limits.timeMs} ms` };
    this.deadline = deadline && deadline.at < own.at ? deadline : own;
    this.maxChars = outputLimit(limits, sourceLength);
    const internals = this as unknown as InterpreterInternals;
    internals.evaluateBlock = (statements, blockScope) => this.renderBlock(statements, blockScope);
    internals.applyFilter = (operand, filter, filterScope) => this.applyFilterWithin(operand, filter, filterScope);
    internals.evaluateBinaryExpression = (node, nodeScope) => this.evaluateBinary(node, nodeScope);
    internals.evaluateMemberExpression = (node, nodeScope) => this.evaluateMember(node, nodeScope);
  }

  override evaluate(statement: Node | undefined, scope: Scope): RuntimeValue {
    if (!statement) return new UndefinedValue(undefined);
    if (statement.type === PRECOMPUTED_NODE) return (statement as PrecomputedNode).computed;
    this.tick();
    if (this.depth >= this.limits.maxDepth)
      throw new TemplateError(`nested deeper than ${this.limits.maxDepth} levels (recursion?)`);
    this.depth++;
    try {
      if (statement.type === 'For') {
        const iterable = (statement as ForNode).iterable;
        this.loopSources.add(iterable.type === 'SelectExpression' && iterable.lhs ? iterable.lhs : iterable);
      }
      const value = super.evaluate(statement, scope);
      return this.checkSize(this.loopSources.has(statement) ? this.checkLoop(value) : value);
    } finally {
      this.depth--;
    }
  }

  private tick(): void {
    if (++this.steps > this.limits.maxSteps) throw new TemplateError(`more than ${this.limits.maxSteps} steps`);
    if ((this.steps & 0xff) === 0 && performance.now() > this.deadline.at)
      throw new TemplateError(this.deadline.reason);
  }

  private checkLoop(value: RuntimeValue): RuntimeValue {
    if (value instanceof UndefinedValue || value instanceof NullValue) return new ArrayValue([]); // lenient, like MiniJinja
    const count =
      value instanceof ArrayValue ? value.value.length : value instanceof ObjectValue ? value.value.size : 0;
    if (count > this.limits.maxLoopItems)
      throw new TemplateError(`loop over ${count} iterations (limit ${this.limits.maxLoopItems})`);
    this.iterations += count;
    if (this.iterations > this.limits.maxIterations)
      throw new TemplateError(`loops over more than ${this.limits.maxIterations} iterations in all`);
    return value;
  }

  private checkSize(value: RuntimeValue): RuntimeValue {
    if (value instanceof StringValue && value.value.length > this.maxChars)
      throw new TemplateError(`a string of ${value.value.length} characters (limit ${this.maxChars})`);
    if (value instanceof ArrayValue && value.value.length > this.limits.maxListItems)
      throw new TemplateError(`a list of ${value.value.length} items (limit ${this.limits.maxListItems})`);
    return value;
  }

  /** A block's output: text as written, statements' output as rendered, `{{ }}` values escaped in HTML. */
  private renderBlock(statements: Node[], scope: Scope): RuntimeValue {
    let result = '';
    for (const statement of statements) {
      let piece: string;
      if (statement.type === TEXT_NODE) {
        this.tick();
        piece = (statement as TextNode).value;
      } else {
        const value = this.evaluate(statement, scope);
        piece = STATEMENTS.has(statement.type) ? this.stringify(value) : this.print(value);
      }
      this.produced += piece.length;
      if (this.produced > 4 * this.maxChars)
        throw new TemplateError(`produced more than ${4 * this.maxChars} characters`);
      if (result.length + piece.length > this.maxChars)
        throw new TemplateError(`the output is longer than ${this.maxChars} characters`);
      result += piece;
    }
    return this.mode === 'html' ? new SafeStringValue(result) : new StringValue(result);
  }

  private print(value: RuntimeValue): string {
    const text = this.stringify(value);
    return this.mode === 'html' && !(value instanceof SafeStringValue) ? escapeHtml(text) : text;
  }

  private stringify(value: RuntimeValue): string {
    if (value instanceof UndefinedValue || value instanceof NullValue) return '';
    if (value instanceof FunctionValue)
      throw new TemplateError('a function cannot be printed (call it with parentheses)');
    if (value instanceof StringValue) return value.value;
    if (value instanceof ArrayValue || value instanceof ObjectValue || value instanceof NamespaceValue)
      this.measure(value);
    return value.toString();
  }

  /** Refuses a list or mapping whose printed form (or JSON) could pass the output limit, before it is built. */
  private measure(value: RuntimeValue, indent = 0): void {
    let total = 0;
    const visit = (item: RuntimeValue, depth: number) => {
      this.tick(); // a walk over a long list is work like any other
      if (depth > this.limits.maxDataDepth)
        throw new TemplateError(`a value nested deeper than ${this.limits.maxDataDepth} levels`);
      total += 8 + indent * depth;
      if (item instanceof StringValue) total += 2 * item.value.length;
      else if (item instanceof ArrayValue) item.value.forEach((child) => visit(child, depth + 1));
      else if (item instanceof ObjectValue || item instanceof NamespaceValue) {
        for (const [key, child] of item.value) {
          total += 2 * key.length;
          visit(child, depth + 1);
        }
      }
      if (total > this.maxChars) throw new TemplateError(`a value of more than ${this.maxChars} characters`);
    };
    visit(value, 0);
  }

  private applyFilterWithin(operand: RuntimeValue, filter: Node, scope: Scope): RuntimeValue {
    let name = filterName(filter);
    if (name === 'safe') return new SafeStringValue(this.stringify(operand));
    if (name === 'escape' || name === 'e')
      return operand instanceof SafeStringValue ? operand : new SafeStringValue(escapeHtml(this.stringify(operand)));
    if (name === 'd') {
      name = 'default';
      filter = renamedFilter(filter, name);
    }
    if (operand instanceof UndefinedValue && name !== 'default') operand = new StringValue(''); // lenient, like MiniJinja
    if (operand instanceof StringValue && filter.type === 'Identifier' && (name === 'title' || name === 'capitalize')) {
      return new StringValue(name === 'title' ? titleCase(operand.value) : capitalize(operand.value)); // Jinja's: the rest of each word lower case
    }
    if (operand instanceof ArrayValue || operand instanceof ObjectValue || operand instanceof NamespaceValue)
      this.measure(operand);
    if (filter.type === 'CallExpression' && AMPLIFYING_FILTERS.has(name)) {
      const { node, args, kwargs } = this.precomputeArguments(filter as CallNode, scope);
      this.guardFilter(name, operand, args, kwargs);
      filter = node;
    } else if (name === 'join') {
      this.guardFilter(name, operand, [], new Map());
    }
    return baseInterpreter.applyFilter.call(this, operand, filter, scope);
  }

  /** Evaluates a filter's arguments once, so they can be checked, and hands the values to the base filter. */
  private precomputeArguments(call: CallNode, scope: Scope) {
    const args: RuntimeValue[] = [];
    const kwargs = new Map<string, RuntimeValue>();
    const computed = call.args.map((argument) => {
      if (argument.type === 'KeywordArgumentExpression') {
        const keyword = argument as Node & { key: IdentifierNode; value: Node };
        const value = this.evaluate(keyword.value, scope);
        kwargs.set(keyword.key.value, value);
        return { ...keyword, value: precomputed(value) };
      }
      if (argument.type === 'SpreadExpression' || argument.type === 'KeywordSpreadExpression')
        throw new TemplateError('argument unpacking is not supported here');
      const value = this.evaluate(argument, scope);
      args.push(value);
      return precomputed(value);
    });
    return { node: { ...call, args: computed } as CallNode, args, kwargs };
  }

  private guardFilter(
    name: string,
    operand: RuntimeValue,
    args: RuntimeValue[],
    kwargs: Map<string, RuntimeValue>,
  ): void {
    const text = operand instanceof StringValue ? operand.value : null;
    if (name === 'join') {
      const separator = args[0] ?? kwargs.get('separator');
      const separatorLength = separator instanceof StringValue ? separator.value.length : 0;
      if (operand instanceof ArrayValue) {
        if (operand.value.some((item) => !SCALARS.some((scalar) => item instanceof scalar))) {
          throw new TemplateError('join: the list holds something other than text and numbers');
        }
        const length = operand.value.reduce((sum, item) => sum + String(item.value ?? '').length, 0);
        this.assertWithin(length + separatorLength * Math.max(0, operand.value.length - 1));
      } else if (text !== null) {
        this.assertWithin(text.length * (1 + separatorLength));
      }
    } else if (name === 'indent' && text !== null) {
      const width = args[0] ?? kwargs.get('width');
      const lines = text.split('\n').length;
      if (width instanceof IntegerValue) this.assertWithin(text.length + lines * Math.abs(width.value));
    } else if (name === 'tojson') {
      const indent = kwargs.get('indent');
      const separators = kwargs.get('separators');
      if (indent instanceof IntegerValue && indent.value > 16) throw new TemplateError('tojson: indent is at most 16');
      if (separators instanceof ArrayValue && separators.value.some((item) => String(item.value).length > 8))
        throw new TemplateError('tojson: separators are at most 8 characters');
      this.measure(operand, indent instanceof IntegerValue ? indent.value : 0);
    } else if (name === 'replace' && text !== null) {
      this.guardReplace(text, args[0], args[1], args[2] ?? kwargs.get('count'));
    }
  }

  private guardReplace(
    text: string,
    old: RuntimeValue | undefined,
    replacement: RuntimeValue | undefined,
    count: RuntimeValue | undefined,
  ): void {
    if (!(old instanceof StringValue) || !(replacement instanceof StringValue)) return; // the base filter refuses these
    const growth = replacement.value.length - old.value.length;
    if (growth <= 0) return;
    const most = count instanceof IntegerValue && count.value >= 0 ? count.value : Infinity;
    let occurrences = 0;
    if (old.value === '') occurrences = Math.min(most, text.length + 1);
    else
      for (
        let at = text.indexOf(old.value);
        at !== -1 && occurrences < most;
        at = text.indexOf(old.value, at + old.value.length)
      )
        occurrences++;
    this.assertWithin(text.length + occurrences * growth);
  }

  private assertWithin(length: number): void {
    if (length > this.maxChars) throw new TemplateError(`a string of ${length} characters (limit ${this.maxChars})`);
  }

  private evaluateBinary(node: BinaryNode, scope: Scope): RuntimeValue {
    const operator = node.operator.value;
    if (operator === 'and' || operator === 'or')
      return baseInterpreter.evaluateBinaryExpression.call(this, node, scope);
    const left = this.evaluate(node.left, scope);
    const right = this.evaluate(node.right, scope);
    if (left instanceof FunctionValue || right instanceof FunctionValue)
      throw new TemplateError(`a function cannot be used with "${operator}"`);
    if (operator === '~' || (operator === '+' && (left instanceof StringValue || right instanceof StringValue))) {
      const joined = this.stringify(left).length + this.stringify(right).length;
      this.assertWithin(joined);
      if (this.mode === 'html' && (left instanceof SafeStringValue || right instanceof SafeStringValue))
        return new SafeStringValue(this.print(left) + this.print(right));
      return new StringValue(this.stringify(left) + this.stringify(right));
    }
    return baseInterpreter.evaluateBinaryExpression.call(
      this,
      { ...node, left: precomputed(left), right: precomputed(right) } as BinaryNode,
      scope,
    );
  }

  private evaluateMember(node: MemberNode, scope: Scope): RuntimeValue {
    const object = this.evaluate(node.object, scope);
    const value = baseInterpreter.evaluateMemberExpression.call(
      this,
      { ...node, object: precomputed(object) } as MemberNode,
      scope,
    );
    if (object instanceof StringValue && value instanceof FunctionValue && value === object.builtins.get('replace')) {
      const replace = value.value;
      return new FunctionValue((args, callScope) => {
        this.guardReplace(object.value, args[0], args[1], args[2]);
        return replace(args, callScope);
      });
    }
    return value;
  }
}

function filterName(filter: Node): string {
  if (filter.type === 'Identifier') return (filter as IdentifierNode).value;
  const callee = (filter as CallNode).callee;
  return filter.type === 'CallExpression' && callee.type === 'Identifier' ? (callee as IdentifierNode).value : '';
}

function renamedFilter(filter: Node, name: string): Node {
  const identifier = { type: 'Identifier', value: name } as IdentifierNode;
  return filter.type === 'CallExpression' ? ({ ...(filter as CallNode), callee: identifier } as CallNode) : identifier;
}

function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase());
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}
