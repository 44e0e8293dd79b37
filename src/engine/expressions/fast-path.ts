/**
 * A compiled fast path for the JSONata most flows are made of: variables, `$var.name` paths,
 * literals, arithmetic, comparisons, `&`, `and`/`or`, `? :`, object constructors with literal
 * keys, parentheses. JSONata's evaluator is asynchronous and walks its AST on every call;
 * these expressions compile once to plain closures that answer synchronously.
 *
 * Exactness comes first: every closure mirrors JSONata's own rules (undefined operands,
 * `=` on undefined is false, comparisons of undefined are undefined, `&` converts like
 * `$string`, truth like `$boolean`), and whenever a value leaves the ground it knows (an
 * array in a path, which JSONata treats as a sequence; a type JSONata would reject; a
 * non-finite number) it returns FALLBACK and the caller evaluates the expression with JSONata
 * itself, which then gives the exact result or error. Evaluation has no side effects, so
 * running it twice is harmless. Anything else in the AST (functions, predicates, bindings,
 * regexes...) is not compiled at all.
 */
import type jsonata from 'jsonata'
import { BareObject } from '../../core/bare-object.js'
import { truthy } from '../blocks/truthy.js'

export const FALLBACK: unique symbol = Symbol('fallback')
export type FastExpression = (scope: Record<string, unknown>) => unknown

/** JSONata's AST node, with the fields its type declaration leaves out. */
type Node = Omit<jsonata.ExprNode, 'type'> & {
  type: string
  condition?: Node
  then?: Node
  else?: Node
  expression?: Node
}

const allowedKeys: Record<string, ReadonlySet<string>> = {
  variable: new Set(['type', 'value', 'position']),
  name: new Set(['type', 'value', 'position']),
  string: new Set(['type', 'value', 'position']),
  number: new Set(['type', 'value', 'position']),
  value: new Set(['type', 'value', 'position']),
  binary: new Set(['type', 'value', 'position', 'lhs', 'rhs']),
  condition: new Set(['type', 'position', 'condition', 'then', 'else']),
  unary: new Set(['type', 'value', 'position', 'expression', 'lhs']),
  block: new Set(['type', 'position', 'expressions']),
  path: new Set(['type', 'steps']),
}

/** Compiles the AST, or returns undefined when it uses anything outside the subset. */
export function compileFast(ast: jsonata.ExprNode): FastExpression | undefined {
  try {
    return compile(ast)
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
}

/** Thrown while compiling when the AST leaves the subset; never escapes `compileFast`. */
class Unsupported extends Error {}

function check(node: Node): void {
  const allowed = allowedKeys[node.type]
  if (allowed === undefined) throw new Unsupported()
  for (const key of Object.keys(node)) if (!allowed.has(key)) throw new Unsupported()
}

function compile(node: Node): FastExpression {
  check(node)
  switch (node.type) {
    case 'string':
    case 'number':
    case 'value': {
      const value: unknown = node.value
      return () => value
    }
    case 'variable':
      return variable(node)
    case 'path':
      return path(node)
    case 'block': {
      const expressions = (node.expressions ?? []).map((n) => compile(n as Node))
      if (expressions.length !== 1) throw new Unsupported()
      return expressions[0]!
    }
    case 'condition': {
      const condition = compile(node.condition!)
      const then = compile(node.then!)
      const otherwise = node.else === undefined ? undefined : compile(node.else)
      return (scope) => {
        const c = condition(scope)
        if (c === FALLBACK || typeof c === 'function') return FALLBACK
        if (truthy(c)) return then(scope)
        return otherwise === undefined ? undefined : otherwise(scope)
      }
    }
    case 'unary':
      return node.value === '-' ? negate(node) : node.value === '{' ? object(node) : fail()
    case 'binary':
      return binary(node)
    default:
      throw new Unsupported()
  }
}

function fail(): never {
  throw new Unsupported()
}

function variable(node: Node): FastExpression {
  const name = node.value as string
  if (typeof name !== 'string' || name === '' || name === '$') throw new Unsupported()
  return (scope) => {
    // A name the flow does not bind is a JSONata built-in (or nothing): JSONata's business.
    if (!(name in scope)) return FALLBACK
    const value = scope[name]
    return isSequence(value) ? FALLBACK : value
  }
}

function path(node: Node): FastExpression {
  const steps = (node.steps ?? []) as Node[]
  const [first, ...rest] = steps
  if (first === undefined || first.type !== 'variable' || rest.length === 0) throw new Unsupported()
  const start = variable(first)
  const names = rest.map((step) => {
    check(step)
    if (step.type !== 'name' || typeof step.value !== 'string') throw new Unsupported()
    return step.value
  })
  return (scope) => {
    let value = start(scope)
    for (const name of names) {
      if (value === FALLBACK || Array.isArray(value)) return FALLBACK
      if (
        value === null ||
        typeof value !== 'object' ||
        !Object.prototype.hasOwnProperty.call(value, name)
      )
        return undefined
      value = (value as Record<string, unknown>)[name]
    }
    // A path ending on an array yields a sequence in JSONata (flattened, a singleton unwrapped).
    return Array.isArray(value) || typeof value === 'function' ? FALLBACK : value
  }
}

function negate(node: Node): FastExpression {
  const operand = compile(node.expression!)
  return (scope) => {
    const value = operand(scope)
    if (value === undefined) return undefined
    return typeof value === 'number' && Number.isFinite(value) ? -value : FALLBACK
  }
}

function object(node: Node): FastExpression {
  const pairs = (node.lhs ?? []) as unknown as [Node, Node][]
  const keys = new Set<string>()
  const entries = pairs.map(([key, value]) => {
    check(key)
    if (key.type !== 'string' || typeof key.value !== 'string' || keys.has(key.value))
      throw new Unsupported()
    keys.add(key.value)
    return [key.value, compile(value)] as const
  })
  return (scope) => {
    const result = new BareObject()
    for (const [key, value] of entries) {
      const v = value(scope)
      if (v === FALLBACK) return FALLBACK
      if (v !== undefined) result[key] = v
    }
    return result
  }
}

function binary(node: Node): FastExpression {
  const left = compile(node.lhs as Node)
  const right = compile(node.rhs!)
  const op = node.value as string
  switch (op) {
    case 'and':
    case 'or':
      return (scope) => {
        const l = left(scope)
        if (l === FALLBACK || typeof l === 'function') return FALLBACK
        const lb = truthy(l)
        if (op === 'and' ? !lb : lb) return lb
        const r = right(scope)
        if (r === FALLBACK || typeof r === 'function') return FALLBACK
        return truthy(r)
      }
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return (scope) => {
        const l = left(scope)
        const r = right(scope)
        if (!numeric(l) || !numeric(r)) return FALLBACK
        if (l === undefined || r === undefined) return undefined
        const value =
          op === '+' ? l + r : op === '-' ? l - r : op === '*' ? l * r : op === '/' ? l / r : l % r
        return Number.isFinite(value) ? value : FALLBACK
      }
    case '=':
    case '!=':
      return (scope) => {
        const l = left(scope)
        const r = right(scope)
        if (l === FALLBACK || r === FALLBACK) return FALLBACK
        if (l === undefined || r === undefined) return false
        if (!primitive(l) || !primitive(r)) return FALLBACK
        return op === '=' ? l === r : l !== r
      }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return (scope) => {
        const l = left(scope)
        const r = right(scope)
        if (!comparable(l) || !comparable(r)) return FALLBACK
        if (l === undefined || r === undefined) return undefined
        if (typeof l !== typeof r) return FALLBACK
        return op === '<' ? l < r : op === '<=' ? l <= r : op === '>' ? l > r : l >= r
      }
    case '&':
      return (scope) => {
        const l = text(left(scope))
        if (l === FALLBACK) return FALLBACK
        const r = text(right(scope))
        return r === FALLBACK ? FALLBACK : l + r
      }
    default:
      throw new Unsupported()
  }
}

/** Numbers JSONata accepts in arithmetic (finite), or undefined. */
function numeric(value: unknown): value is number | undefined {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value))
}

function comparable(value: unknown): value is number | string | undefined {
  return (
    value === undefined ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

function primitive(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && !Number.isNaN(value))
  )
}

/** `$string` of the values whose text is unambiguous; FALLBACK for the rest. */
function text(value: unknown): string | typeof FALLBACK {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean' || value === null) return String(value)
  if (typeof value === 'number' && Number.isFinite(value)) {
    // JSONata prints non-integers with 15 significant digits: 0.1 + 0.2 is "0.3".
    return JSON.stringify(Number.isInteger(value) ? value : Number(value.toPrecision(15)))
  }
  return FALLBACK
}

function isSequence(value: unknown): boolean {
  return Array.isArray(value) && (value as { sequence?: unknown }).sequence === true
}
