/**
 * Typed conversion of request values to the declared type of an input variable (SPEC 4.3).
 * Query strings are text, so `"3"` becomes 3 for a number, `"true"` becomes true for a
 * boolean, and JSON text becomes an object or array. The gateway and the trigger reuse it.
 *
 * | declared | accepts                                                     |
 * |----------|-------------------------------------------------------------|
 * | string   | string; number or boolean (as their text)                   |
 * | number   | finite number; text of a finite number (`"3"`, `"-1.5e3"`)  |
 * | boolean  | boolean; `"true"`/`"false"`/`"1"`/`"0"` (any letter case)    |
 * | object   | object (not array); JSON text of an object                  |
 * | array    | array; JSON text of an array                                |
 * | any      | anything                                                    |
 *
 * `null` is accepted for every type (an explicit empty value); `undefined` means absent.
 */
import type { VariableType } from './definition.js'

export type Conversion = { ok: true; value: unknown } | { ok: false; reason: string }

const numberText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

export function convertValue(value: unknown, type: VariableType): Conversion {
  if (value === undefined || value === null || type === 'any') return { ok: true, value }
  switch (type) {
    case 'string':
      if (typeof value === 'string') return { ok: true, value }
      if (typeof value === 'number' || typeof value === 'boolean')
        return { ok: true, value: String(value) }
      return fail(value, type)
    case 'number': {
      if (typeof value === 'number')
        return Number.isFinite(value) ? { ok: true, value } : fail(value, type)
      if (typeof value === 'string') {
        const text = value.trim()
        const n = Number(text)
        if (numberText.test(text) && Number.isFinite(n)) return { ok: true, value: n }
      }
      return fail(value, type)
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value }
      if (typeof value === 'string') {
        const text = value.trim().toLowerCase()
        if (text === 'true' || text === '1') return { ok: true, value: true }
        if (text === 'false' || text === '0') return { ok: true, value: false }
      }
      return fail(value, type)
    }
    case 'object':
      if (isPlainObject(value)) return { ok: true, value }
      if (typeof value === 'string') {
        const parsed = parseJson(value)
        if (isPlainObject(parsed)) return { ok: true, value: parsed }
      }
      return fail(value, type)
    case 'array':
      if (Array.isArray(value)) return { ok: true, value }
      if (typeof value === 'string') {
        const parsed = parseJson(value)
        if (Array.isArray(parsed)) return { ok: true, value: parsed }
      }
      return fail(value, type)
  }
}

/** Whether a value already has the declared type (no conversion): used when steps assign. */
export function hasType(value: unknown, type: VariableType): boolean {
  if (value === undefined || value === null || type === 'any') return true
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return isPlainObject(value)
    case 'array':
      return Array.isArray(value)
  }
}

export function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'number' && !Number.isFinite(value)) return `the number ${String(value)}`
  return `a ${typeof value}`
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function fail(value: unknown, type: VariableType): Conversion {
  const shown =
    typeof value === 'string'
      ? `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
      : describeType(value)
  return { ok: false, reason: `expected ${articled(type)}, got ${shown}` }
}

function articled(type: VariableType): string {
  return type === 'object' || type === 'array' || type === 'any' ? `an ${type}` : `a ${type}`
}
