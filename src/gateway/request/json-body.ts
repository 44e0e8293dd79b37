/**
 * Parsing of JSON request bodies, guarded: an empty body is `{}`, and the parsed value is
 * walked once (iteratively) to refuse nesting deeper than a limit (a 20 KB body nested 10,000
 * deep parses fine and then breaks `JSON.stringify` and recursive code) and keys that could
 * reach an object prototype.
 */
import { prototypeKeys } from '../../core/bare-object.js'

export type BodyParse = { ok: true; value: unknown } | { ok: false; message: string }

export function parseJsonBody(text: string, maxDepth: number): BodyParse {
  if (text.trim() === '') return { ok: true, value: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, message: `The body is not valid JSON: ${(error as Error).message}` }
  }
  const problem = inspect(value, maxDepth)
  return problem === undefined ? { ok: true, value } : { ok: false, message: problem }
}

function inspect(root: unknown, maxDepth: number): string | undefined {
  if (root === null || typeof root !== 'object') return undefined
  const stack: [unknown, number][] = [[root, 1]]
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (depth > maxDepth) return `The body is nested deeper than ${maxDepth} levels`
    if (Array.isArray(value)) {
      for (const item of value)
        if (item !== null && typeof item === 'object') stack.push([item, depth + 1])
    } else {
      for (const key of Object.keys(value as object)) {
        if (prototypeKeys.has(key)) return `The body has a forbidden key '${key}'`
        const item = (value as Record<string, unknown>)[key]
        if (item !== null && typeof item === 'object') stack.push([item, depth + 1])
      }
    }
  }
  return undefined
}
