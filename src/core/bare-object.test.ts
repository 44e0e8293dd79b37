import { describe, expect, it } from 'vitest'
import { BareObject } from './bare-object.js'

describe('BareObject', () => {
  it('reaches nothing of Object.prototype and treats __proto__ as an ordinary key', () => {
    const object = new BareObject()
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])
      expect(object[name]).toBeUndefined()
    object.__proto__ = 'plain'
    expect(Object.keys(object)).toEqual(['__proto__'])
    expect('toString' in object).toBe(false)
  })

  it('serializes and spreads like a plain object', () => {
    const object = new BareObject<number>()
    object.a = 1
    object.b = 2
    expect(JSON.stringify(object)).toBe('{"a":1,"b":2}')
    expect({ ...object }).toEqual({ a: 1, b: 2 })
    expect(structuredClone(object)).toEqual({ a: 1, b: 2 })
  })
})
