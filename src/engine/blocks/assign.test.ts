import { describe, expect, it } from 'vitest'
import { compile, errorOf, flow, outputsOf, problemsOf } from '../../../test/helpers/flows.js'

const vars = `    - { name: price, type: number, input: true }
    - { name: qty, type: number, input: true }
    - { name: total, type: number, output: true }
    - { name: status, type: string, output: true }
    - { name: label, type: string, output: true }`

describe('assign', () => {
  it('sets several variables in order, so later entries see earlier ones', async () => {
    const yaml = flow(
      vars,
      `  - assign: { total: "{% $price * $qty %}", status: open, label: "{% $status & ':' & $string($total) %}" }`,
    )
    expect(await outputsOf(yaml, { inputs: { price: 2.5, qty: 4 } })).toEqual({
      total: 10,
      status: 'open',
      label: 'open:10',
    })
  })

  it('keeps literals as they are, at any depth, and evaluates only {% %} strings', async () => {
    const yaml = flow(
      `    - { name: t, type: string, input: true }
    - { name: doc, type: object, output: true }`,
      `  - assign: { doc: { id: "{% $t %}", tags: [a, "{% $uppercase($t) %}"], raw: "not {% an expression", n: 1 } }`,
    )
    expect(await outputsOf(yaml, { inputs: { t: 'x' } })).toEqual({
      doc: { id: 'x', tags: ['a', 'X'], raw: 'not {% an expression', n: 1 },
    })
  })

  it('refuses a value of the wrong type for the declared variable', async () => {
    const error = await errorOf(flow(vars, `  - assign: { total: "{% 'ten' %}" }`))
    expect(error).toMatchObject({ code: 'TYPE_MISMATCH', flow: 't', step: 'steps[0]' })
    expect(error.message).toContain("'total', declared number")
  })

  it('refuses to assign an undeclared variable when the flow is loaded', () => {
    const problems = problemsOf(flow(vars, `  - assign: { totl: 1 }`))
    expect(problems).toEqual([
      expect.stringMatching(
        /^test\.flow\.yaml:10:21 cannot assign 'totl': it is not a declared variable/,
      ),
    ])
  })

  it('writes result even when it is not declared', async () => {
    expect(await outputsOf(flow(vars, `  - assign: { result: 42 }`))).toEqual({ result: 42 })
  })

  it('compiles each expression once, not per run', async () => {
    const compiled = compile(flow(vars, `  - assign: { total: "{% $price * $qty %}" }`))
    const step = compiled.steps[0]
    expect(step?.kind).toBe('assign')
    const template = step?.kind === 'assign' ? step.assignments[0]?.value : undefined
    await outputsOf(compiled, { inputs: { price: 1, qty: 2 } })
    await outputsOf(compiled, { inputs: { price: 3, qty: 2 } })
    // Same template object across runs: nothing was recompiled.
    expect(compiled.steps[0]?.kind === 'assign' && compiled.steps[0].assignments[0]?.value).toBe(
      template,
    )
  })
})
