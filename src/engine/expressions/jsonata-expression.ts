/**
 * One JSONata expression, compiled once when its flow is loaded and evaluated many times.
 *
 * Every evaluation runs under JSONata's `timeout`, `stack` and `sequence` options, with the
 * size-checking built-ins of `guards.ts`, and its result is measured before it is returned.
 * JSONata's failures (plain objects with a `code`, or a RangeError when V8 itself gives up)
 * become `FlowFailure`s with one of our codes.
 */
import jsonata from 'jsonata'
import { FlowFailure } from '../flow-error.js'
import { compileFast, FALLBACK } from './fast-path.js'
import {
  assertWithinLimits,
  limitExceeded,
  registerGuardedBuiltins,
  type ExpressionLimits,
} from './guards.js'

/** The bindings of one evaluation: flow variables plus `context`, `body`, `headers`. */
export type Scope = Record<string, unknown>

export interface CompiledExpression {
  readonly source: string
  /** Whether the compiled fast path covers this expression (see fast-path.ts). */
  readonly fast: boolean
  /** Synchronous when the fast path answers; a promise when JSONata has to. */
  evaluate(scope: Scope): unknown
}

export interface ExpressionSyntaxError {
  readonly message: string
  /** Offset of the error inside the expression source, when JSONata knows it. */
  readonly position: number | undefined
}

interface JsonataErrorLike {
  code?: string
  message?: string
  position?: number
  token?: string
  value?: unknown
}

/** Codes JSONata raises when one of its guard options trips. */
const limitCodes: Record<string, string> = {
  D1011: 'The expression recursed deeper than allowed',
  D2014: 'The range operator built too large an array',
  D2015: 'The expression built a sequence longer than allowed',
}

export function compileExpression(
  source: string,
  options: { timeoutMs: number; limits: ExpressionLimits },
): CompiledExpression | ExpressionSyntaxError {
  let expression: jsonata.Expression
  try {
    expression = jsonata(source, {
      timeout: options.timeoutMs,
      stack: options.limits.maxDepth,
      sequence: options.limits.maxArrayLength,
    })
  } catch (error) {
    const e = error as JsonataErrorLike
    return { message: e.message ?? String(error), position: e.position }
  }
  registerGuardedBuiltins(
    (name, implementation, signature) =>
      expression.registerFunction(name, implementation, signature),
    options.limits,
  )
  const limits = options.limits
  const fast = compileFast(expression.ast())
  const slow = async (scope: Scope): Promise<unknown> => {
    let value: unknown
    try {
      value = await expression.evaluate(undefined, scope)
    } catch (error) {
      throw toFlowFailure(error, source, options.timeoutMs)
    }
    if (value !== null && typeof value === 'object' && isJsonataFunction(value)) {
      throw new FlowFailure(
        'TYPE_MISMATCH',
        'The expression returned a function; a flow can only keep JSON values',
      )
    }
    assertWithinLimits(value, limits)
    return value
  }
  if (fast === undefined) return { source, fast: false, evaluate: slow }
  return {
    source,
    fast: true,
    evaluate(scope: Scope): unknown {
      const value = fast(scope)
      if (value === FALLBACK) return slow(scope)
      if (typeof value === 'string' && value.length > limits.maxStringLength)
        assertWithinLimits(value, limits)
      return value
    },
  }
}

export function isSyntaxError(
  compiled: CompiledExpression | ExpressionSyntaxError,
): compiled is ExpressionSyntaxError {
  return !('evaluate' in compiled)
}

function isJsonataFunction(value: object): boolean {
  return '_jsonata_lambda' in value || '_jsonata_function' in value
}

function toFlowFailure(error: unknown, source: string, timeoutMs: number): FlowFailure {
  if (error instanceof FlowFailure) return error
  if (error instanceof RangeError) {
    // V8 refused: call stack exhausted (`**` over very deep data) or a string/array too large.
    return limitExceeded(`The expression went past an engine limit: ${error.message}`, 0)
  }
  const e = (error ?? {}) as JsonataErrorLike
  if (e.code === 'D1012') {
    return new FlowFailure(
      'FLOW_TIMEOUT',
      `The expression ran past the time limit of ${timeoutMs} ms`,
      {
        timeoutMs,
      },
    )
  }
  const limitMessage = e.code !== undefined ? limitCodes[e.code] : undefined
  if (limitMessage !== undefined) return limitExceeded(limitMessage, Number(e.value) || 0)
  const message = e.message ?? (error instanceof Error ? error.message : String(error))
  return new FlowFailure('EXPRESSION_FAILED', `Expression failed: ${message}`, {
    expression: source.length > 200 ? `${source.slice(0, 200)}…` : source,
    ...(e.code !== undefined && { jsonataCode: e.code }),
    ...(e.position !== undefined && { position: e.position }),
  })
}
