/** Variables: inputs, defaults, required, types, outputs and the "present" rule. */
import { describe, expect, it } from 'vitest'
import { errorOf, flow, outputsOf, run } from '../helpers/flows.js'

describe('inputs', () => {
  const yaml = flow(
    `    - { name: qty, type: number, input: true, required: true }
    - { name: express, type: boolean, input: true, default: false }
    - { name: tags, type: array, input: true }
    - { name: note, type: string, default: internal }
    - { name: out, type: object, output: true }`,
    `  - assign: { out: "{% {'qty': $qty, 'express': $express, 'tags': $tags, 'note': $note} %}" }`,
  )
  it('converts request text to the declared types', async () => {
    expect(await outputsOf(yaml, { inputs: { qty: '3', express: 'true', tags: '["a"]' } })).toEqual(
      {
        out: { qty: 3, express: true, tags: ['a'], note: 'internal' },
      },
    )
  })
  it('uses defaults for absent inputs, and only inputs take request values', async () => {
    expect(await outputsOf(yaml, { inputs: { qty: 1, note: 'from request' } })).toEqual({
      out: { qty: 1, express: false, note: 'internal' },
    })
  })
  it('fails with INPUT_REQUIRED naming a missing required input', async () => {
    expect(await errorOf(yaml, { inputs: {} })).toMatchObject({
      code: 'INPUT_REQUIRED',
      message: "Missing required input 'qty'",
      details: { input: 'qty' },
    })
    expect((await errorOf(yaml, { inputs: { qty: null } })).code).toBe('INPUT_REQUIRED')
  })
  it('fails with INPUT_INVALID naming every input that cannot be converted', async () => {
    const error = await errorOf(yaml, { inputs: { qty: 'three', express: 'maybe' } })
    expect(error.code).toBe('INPUT_INVALID')
    expect(error.message).toContain(`input 'qty': expected a number, got the text "three"`)
    expect(error.message).toContain(`input 'express': expected a boolean, got the text "maybe"`)
  })
})

describe('outputs and the present rule', () => {
  it('lists an output when assigned or declared with a default (null included), not otherwise', async () => {
    const yaml = flow(
      `    - { name: assigned, type: string, output: true }
    - { name: defaulted, type: number, output: true, default: 0 }
    - { name: nullDefault, output: true, default: null }
    - { name: never, type: string, output: true }
    - { name: internal, type: string, default: hidden }`,
      `  - assign: { assigned: x }`,
    )
    const outputs = await outputsOf(yaml)
    expect(outputs).toEqual({ assigned: 'x', defaulted: 0, nullDefault: null })
    expect('never' in outputs).toBe(false)
  })
  it('makes an output absent again when an expression yields nothing', async () => {
    const yaml = flow(
      `    - { name: v, output: true, default: 1 }`,
      `  - assign: { v: "{% $nothing %}" }`,
    )
    expect(await outputsOf(yaml)).toEqual({})
  })
  it('always has result, an output even when not declared', async () => {
    const yaml = flow(`    - { name: a, type: number }`, `  - assign: { result: { ok: true } }`)
    expect(await outputsOf(yaml)).toEqual({ result: { ok: true } })
  })
  it('returns the final value of every declared variable for response mapping', async () => {
    const result = await run(
      flow(`    - { name: a, type: number, default: 2 }`, `  - assign: { result: 1 }`),
    )
    expect(result).toMatchObject({ kind: 'completed', variables: { a: 2, result: 1 } })
  })
})

describe('wrap body and wrap headers', () => {
  it('binds $body and $headers only when the Start block enables them', async () => {
    const on = `name: t
start:
  wrapBody: true
  wrapHeaders: true
  variables:
    - { name: application, type: string, input: true }
steps:
  - assign: { result: "{% [$application, $body.application, $headers.'x-a'] %}" }
`
    const request = {
      inputs: { application: 'system' },
      body: { application: 'from-request' },
      headers: { 'x-a': 'h' },
    }
    expect(await outputsOf(on, request)).toEqual({ result: ['system', 'from-request', 'h'] })
    const off = on
      .replace('wrapBody: true', 'wrapBody: false')
      .replace('wrapHeaders: true', 'wrapHeaders: false')
    expect(await outputsOf(off, request)).toEqual({ result: ['system'] })
  })
})
