import { describe, expect, it } from 'vitest'
import { convertValue } from './convert.js'

const ok = (value: unknown) => ({ ok: true, value })

describe('convertValue (SPEC 4.3 typed conversion)', () => {
  it.each([
    ['string', 'abc', 'abc'],
    ['string', 3, '3'],
    ['string', true, 'true'],
    ['number', 3, 3],
    ['number', '3', 3],
    ['number', ' -1.5e3 ', -1500],
    ['number', '.5', 0.5],
    ['boolean', true, true],
    ['boolean', 'true', true],
    ['boolean', 'FALSE', false],
    ['boolean', '1', true],
    ['boolean', '0', false],
    ['object', { a: 1 }, { a: 1 }],
    ['object', '{"a":1}', { a: 1 }],
    ['array', [1], [1]],
    ['array', '[1,"x"]', [1, 'x']],
    ['any', '3', '3'],
    ['any', { a: 1 }, { a: 1 }],
  ] as const)('converts to %s: %j -> %j', (type, input, expected) => {
    expect(convertValue(input, type)).toEqual(ok(expected))
  })

  it.each([
    ['string', { a: 1 }, 'expected a string, got an object'],
    ['string', [1], 'expected a string, got an array'],
    ['number', 'abc', 'expected a number, got the text "abc"'],
    ['number', '', 'expected a number, got the text ""'],
    ['number', '0x10', 'expected a number, got the text "0x10"'],
    ['number', 'Infinity', 'expected a number, got the text "Infinity"'],
    ['number', '1e999', 'expected a number, got the text "1e999"'],
    ['number', true, 'expected a number, got a boolean'],
    ['boolean', 'yes', 'expected a boolean, got the text "yes"'],
    ['boolean', 1, 'expected a boolean, got a number'],
    ['object', '[1]', 'expected an object, got the text "[1]"'],
    ['object', '{oops', 'expected an object, got the text "{oops"'],
    ['object', [1], 'expected an object, got an array'],
    ['array', '{"a":1}', 'expected an array, got the text "{\\"a\\":1}"'],
    ['array', 'x', 'expected an array, got the text "x"'],
  ] as const)('refuses %s from %j', (type, input, reason) => {
    expect(convertValue(input, type)).toEqual({ ok: false, reason })
  })

  it('keeps null (an explicit empty value) and undefined (absent) for every type', () => {
    for (const type of ['string', 'number', 'boolean', 'object', 'array', 'any'] as const) {
      expect(convertValue(null, type)).toEqual(ok(null))
      expect(convertValue(undefined, type)).toEqual(ok(undefined))
    }
  })
})
