import { describe, expect, it } from 'vitest'
import { parseQueryString, redactUrl } from './query-string.js'

const parsed = (search: string) => {
  const result = parseQueryString(search)
  if (!result.ok) throw new Error(result.message)
  return result.query
}

describe('parseQueryString', () => {
  it('decodes keys and values, + as a space, and skips empty parts', () => {
    expect({ ...parsed('a=1&b=x%20y+z&&c=&d') }).toEqual({ a: '1', b: 'x y z', c: '', d: '' })
  })

  it('gives objects where nothing of Object.prototype can be reached', () => {
    const query = parsed('a=1')
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])
      expect((query as Record<string, unknown>)[name]).toBeUndefined()
    expect('toString' in query).toBe(false)
    expect(Object.keys(query)).toEqual(['a'])
    expect(JSON.stringify(query)).toBe('{"a":"1"}')
    expect(Object.hasOwn(parsed(''), 'a')).toBe(false)
  })

  it('refuses repeated keys, prototype keys and broken percent-encoding', () => {
    expect(parseQueryString('a=1&a=2')).toMatchObject({ ok: false })
    expect(parseQueryString('constructor=x')).toMatchObject({ ok: false })
    expect(parseQueryString('__proto__=x')).toMatchObject({ ok: false })
    expect(parseQueryString('a=%zz')).toMatchObject({ ok: false })
  })
})

describe('redactUrl', () => {
  it('hides the api_key value', () => {
    expect(redactUrl('/x?a=1&api_key=secret&b=2')).toBe('/x?a=1&api_key=[REDACTED]&b=2')
  })
})
