/**
 * Strict query-string parsing. Lenient parsers silently keep broken percent-encoding or turn a
 * repeated key into an array; a flow would then see values nobody meant to send. Here every
 * such case is a 400 instead, and keys that could reach an object prototype are refused.
 */
export type QueryParse =
  { ok: true; query: Record<string, string> } | { ok: false; message: string }

import { BareObject, prototypeKeys } from '../../core/bare-object.js'

export function parseQueryString(search: string): QueryParse {
  const query = new BareObject<string>()
  if (search === '') return { ok: true, query }
  for (const part of search.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const rawKey = eq === -1 ? part : part.slice(0, eq)
    const rawValue = eq === -1 ? '' : part.slice(eq + 1)
    let key: string
    let value: string
    try {
      key = decode(rawKey)
      value = decode(rawValue)
    } catch {
      return {
        ok: false,
        message: `The query string has broken percent-encoding near '${part.slice(0, 40)}'`,
      }
    }
    if (key === '') continue
    if (prototypeKeys.has(key))
      return { ok: false, message: `The query parameter '${key}' is not allowed` }
    if (Object.hasOwn(query, key))
      return { ok: false, message: `The query parameter '${key}' is repeated` }
    query[key] = value
  }
  return { ok: true, query }
}

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  return decodeURIComponent(text.replace(/\+/g, ' '))
}

/** Replaces the value of `api_key` in a URL (for logs): credentials never reach them. */
export function redactUrl(url: string): string {
  return url.includes('api_key') ? url.replace(/([?&]api_key=)[^&#]*/g, '$1[REDACTED]') : url
}
