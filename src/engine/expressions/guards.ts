/**
 * Guards for expressions, where hostile request data meets user logic.
 *
 * JSONata's own `timeout`, `stack` and `sequence` options bound time, recursion and sequence
 * length, but a single built-in call can still build a huge value in one native step
 * (`$pad("", 20000000, "x")` finishes long before any timeout is checked). So the built-ins
 * that can multiply sizes are replaced by versions that check the size they are about to
 * build, and every expression result is measured before the flow may keep it.
 */
import jsonata from 'jsonata'
import { FlowFailure } from '../flow-error.js'

export interface ExpressionLimits {
  /** Longest string an expression may build (UTF-16 code units). */
  readonly maxStringLength: number
  /** Longest array or sequence an expression may build. */
  readonly maxArrayLength: number
  /** Deepest JSONata evaluation stack (recursion). */
  readonly maxDepth: number
}

export const defaultExpressionLimits: ExpressionLimits = Object.freeze({
  maxStringLength: 5_000_000,
  maxArrayLength: 1_000_000,
  maxDepth: 200,
})

export function limitExceeded(message: string, limit: number): FlowFailure {
  return new FlowFailure('EXPRESSION_LIMIT', message, { limit })
}

function stringTooLong(limits: ExpressionLimits, what: string): FlowFailure {
  return limitExceeded(
    `${what} would build a string longer than ${limits.maxStringLength} characters`,
    limits.maxStringLength,
  )
}

/**
 * Throws when `value` holds a string or array over the limits. Walks nested values, but stops
 * at a budget of visited nodes so the check itself stays cheap on large legitimate values.
 */
export function assertWithinLimits(value: unknown, limits: ExpressionLimits): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string' && value.length > limits.maxStringLength) {
      throw stringTooLong(limits, 'The expression')
    }
    return
  }
  let budget = 10_000
  const stack: unknown[] = [value]
  while (stack.length > 0 && budget-- > 0) {
    const current = stack.pop()
    if (typeof current === 'string') {
      if (current.length > limits.maxStringLength) throw stringTooLong(limits, 'The expression')
    } else if (Array.isArray(current)) {
      if (current.length > limits.maxArrayLength) {
        throw limitExceeded(
          `The expression built an array of more than ${limits.maxArrayLength} items`,
          limits.maxArrayLength,
        )
      }
      for (const item of current) if (item !== null && typeof item !== 'number') stack.push(item)
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) stack.push((current as Record<string, unknown>)[key])
    }
  }
}

interface JsonataFunction {
  implementation: (this: unknown, ...args: unknown[]) => unknown
  signature?: unknown
}

/** The built-in implementations, fetched once: JSONata does not export them. */
const builtins = await (async () => {
  const take = async (name: string) =>
    (await jsonata(`$${name}`).evaluate(undefined)) as JsonataFunction
  return {
    pad: await take('pad'),
    join: await take('join'),
    replace: await take('replace'),
  }
})()

type Registrar = (
  name: string,
  implementation: (this: unknown, ...args: unknown[]) => unknown,
  signature: string,
) => void

/** Registers the size-checking versions of the multiplying built-ins on one compiled expression. */
export function registerGuardedBuiltins(register: Registrar, limits: ExpressionLimits): void {
  register(
    'pad',
    function (this: unknown, str: unknown, width: unknown, char: unknown) {
      if (typeof width === 'number' && Math.abs(width) > limits.maxStringLength) {
        throw stringTooLong(limits, '$pad')
      }
      return builtins.pad.implementation.call(this, str, width, char)
    },
    '<s-ns?:s>',
  )
  register(
    'join',
    function (this: unknown, strings: unknown, separator: unknown) {
      if (Array.isArray(strings)) {
        const sep = typeof separator === 'string' ? separator.length : 0
        let total = 0
        for (const s of strings) total += (typeof s === 'string' ? s.length : 0) + sep
        if (total > limits.maxStringLength) throw stringTooLong(limits, '$join')
      }
      return builtins.join.implementation.call(this, strings, separator)
    },
    '<a<s>s?:s>',
  )
  register(
    'replace',
    function (this: unknown, str: unknown, pattern: unknown, replacement: unknown, limit: unknown) {
      // Worst case every position matches; only then count the real matches.
      if (typeof str === 'string' && typeof replacement === 'string') {
        const worst = str.length + (str.length + 1) * replacement.length
        if (worst > limits.maxStringLength && typeof pattern === 'string' && pattern !== '') {
          let matches = 0
          for (
            let at = str.indexOf(pattern);
            at !== -1;
            at = str.indexOf(pattern, at + pattern.length)
          ) {
            matches++
          }
          if (str.length + matches * replacement.length > limits.maxStringLength) {
            throw stringTooLong(limits, '$replace')
          }
        }
      }
      return builtins.replace.implementation.call(this, str, pattern, replacement, limit)
    },
    '<s-(sf)(sf)n?:s>',
  )
}
