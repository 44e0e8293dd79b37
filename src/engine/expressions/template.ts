/**
 * Templates: step arguments that are literals, except for strings that are wholly
 * `{% <JSONata> %}`, at any depth (`{ id: "{% $x %}", tags: [a, "{% $t %}"] }`).
 *
 * A template is compiled once; parts without expressions are folded into frozen constants so
 * that evaluating them costs nothing, and `evaluate` only returns a promise when an
 * expression is involved.
 */
import { problem, type DocumentPath, type Problem } from '../../core/problems.js'
import type { ExpressionLimits } from './guards.js'
import { compileExpression, isSyntaxError, type Scope } from './jsonata-expression.js'

export type MaybePromise<T> = T | Promise<T>

export interface Template {
  /** True when the template holds no expression: `evaluate` returns the same frozen value. */
  readonly constant: boolean
  evaluate(scope: Scope): MaybePromise<unknown>
}

export interface TemplateCompiler {
  readonly timeoutMs: number
  readonly limits: ExpressionLimits
  readonly problems: Problem[]
}

const expressionPattern = /^\s*\{%([\s\S]*)%\}\s*$/

/** The JSONata source of a `{% ... %}` string, or undefined for a literal. */
export function expressionSource(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = expressionPattern.exec(value)
  return match ? (match[1] ?? '') : undefined
}

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise
}

export function constantTemplate(value: unknown): Template {
  const frozen = deepFreeze(value)
  return { constant: true, evaluate: () => frozen }
}

export function compileTemplate(
  value: unknown,
  path: DocumentPath,
  compiler: TemplateCompiler,
): Template {
  const source = expressionSource(value)
  if (source !== undefined) {
    if (source.trim() === '') {
      compiler.problems.push(problem(path, 'empty expression: write JSONata between {% and %}'))
      return constantTemplate(undefined)
    }
    const compiled = compileExpression(source, {
      timeoutMs: compiler.timeoutMs,
      limits: compiler.limits,
    })
    if (isSyntaxError(compiled)) {
      const at = compiled.position !== undefined ? ` at character ${compiled.position}` : ''
      compiler.problems.push(problem(path, `expression syntax error${at}: ${compiled.message}`))
      return constantTemplate(undefined)
    }
    return { constant: false, evaluate: (scope) => compiled.evaluate(scope) }
  }
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileTemplate(item, [...path, i], compiler))
    if (items.every((t) => t.constant)) return constantTemplate(value)
    return arrayTemplate(items)
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => [key, compileTemplate(item, [...path, key], compiler)] as const,
    )
    if (entries.every(([, t]) => t.constant)) return constantTemplate(value)
    return objectTemplate(entries)
  }
  return constantTemplate(value)
}

function arrayTemplate(items: readonly Template[]): Template {
  return {
    constant: false,
    evaluate(scope) {
      const out: unknown[] = new Array<unknown>(items.length)
      let pending: Promise<void>[] | undefined
      items.forEach((item, i) => {
        const v = item.evaluate(scope)
        if (isPromise(v)) (pending ??= []).push(v.then((r) => void (out[i] = r)))
        else out[i] = v
      })
      return pending ? Promise.all(pending).then(() => out) : out
    },
  }
}

function objectTemplate(entries: readonly (readonly [string, Template])[]): Template {
  return {
    constant: false,
    evaluate(scope) {
      const out: Record<string, unknown> = {}
      let pending: Promise<void>[] | undefined
      for (const [key, item] of entries) {
        out[key] = undefined // fix the key order before any expression settles
        const v = item.evaluate(scope)
        if (isPromise(v)) (pending ??= []).push(v.then((r) => void setOwn(out, key, r)))
        else setOwn(out, key, v)
      }
      return pending ? Promise.all(pending).then(() => out) : out
    },
  }
}

/** Assigns without ever touching a prototype, whatever the key (`__proto__` included). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  } else {
    target[key] = value
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const item of Object.values(value)) deepFreeze(item)
  }
  return value
}
