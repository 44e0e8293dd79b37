/**
 * Limits per run and guards on expressions: where hostile data meets user logic, every path
 * must end in a clear flow error, never a crash or a hang.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, flow, outputsOf } from '../helpers/flows.js'

const exprFlow = (expression: string, extra = '') =>
  flow(`    - { name: v, input: true }`, `  - assign: { result: "{% ${expression} %}" }`, extra)

describe('run limits', () => {
  it('ends an endless loop at the step cap with STEP_LIMIT_EXCEEDED', async () => {
    const yaml = flow(
      `    - { name: n, type: number, default: 0 }`,
      `  - while: true\n    do: [ { assign: { n: "{% $n + 1 %}" } } ]`,
      'limits: { maxSteps: 1000 }\n',
    )
    expect(await errorOf(yaml)).toMatchObject({
      code: 'STEP_LIMIT_EXCEEDED',
      details: { maxSteps: 1000 },
    })
  })

  it('counts loop iterations, so even an empty loop body ends', async () => {
    const yaml = flow(
      `    - { name: n, type: number, default: 0 }`,
      `  - while: true\n    do: []`,
      'limits: { maxSteps: 500 }\n',
    )
    expect((await errorOf(yaml)).code).toBe('STEP_LIMIT_EXCEEDED')
  })

  it('ends a run past its wall-clock limit with FLOW_TIMEOUT', async () => {
    const yaml = flow(
      `    - { name: n, type: number, default: 0 }`,
      `  - while: true\n    do: [ { assign: { n: "{% $n + 1 %}" } } ]`,
      'limits: { timeoutMs: 100, maxSteps: 100000000 }\n',
    )
    const started = Date.now()
    expect(await errorOf(yaml)).toMatchObject({ code: 'FLOW_TIMEOUT', details: { timeoutMs: 100 } })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it("lets the caller cap the flow's time limit (an authentication flow's, say)", async () => {
    const yaml = flow(
      `    - { name: n, type: number, default: 0 }`,
      `  - while: true\n    do: [ { assign: { n: "{% $n + 1 %}" } } ]`,
      'limits: { maxSteps: 100000000 }\n',
    )
    expect(await errorOf(yaml, {}, { timeoutMs: 50 })).toMatchObject({
      code: 'FLOW_TIMEOUT',
      details: { timeoutMs: 50 },
    })
  })

  it('stops a single long-running expression with its timeout', async () => {
    const yaml = exprFlow(
      '$sum($map([1..900000], function($x) { $x * $x }))',
      'limits: { timeoutMs: 50 }\n',
    )
    expect((await errorOf(yaml)).code).toBe('FLOW_TIMEOUT')
  })

  it('ends with FLOW_CANCELLED when the caller aborts', async () => {
    const controller = new AbortController()
    controller.abort()
    expect((await errorOf(exprFlow('1'), {}, { signal: controller.signal })).code).toBe(
      'FLOW_CANCELLED',
    )
  })
})

describe('expression guards', () => {
  it('refuses $pad("", 20000000, "x") before building it', async () => {
    const started = Date.now()
    const error = await errorOf(exprFlow(`$pad('', 20000000, 'x')`))
    expect(error).toMatchObject({ code: 'EXPRESSION_LIMIT', step: 'steps[0]' })
    expect(error.message).toContain('$pad')
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('refuses strings grown by repeated concatenation', async () => {
    const error = await errorOf(
      exprFlow(`$reduce([1..30], function($acc, $i) { $acc & $acc }, 'xy')`),
    )
    expect(error.code).toBe('EXPRESSION_LIMIT')
  })

  it('refuses $join and $replace results over the string cap', async () => {
    expect((await errorOf(exprFlow(`$join([1..20].($pad('', 400000, 'x')))`))).code).toBe(
      'EXPRESSION_LIMIT',
    )
    expect(
      (await errorOf(exprFlow(`$replace($pad('', 100000, 'a'), 'a', $pad('', 100, 'b'))`))).code,
    ).toBe('EXPRESSION_LIMIT')
  })

  it('refuses sequences and ranges over the array cap', async () => {
    expect((await errorOf(exprFlow('[1..2000000]'))).code).toBe('EXPRESSION_LIMIT')
    expect((await errorOf(exprFlow(`$split($pad('', 1500000, 'x'), '')`))).code).toBe(
      'EXPRESSION_LIMIT',
    )
  })

  it('stops runaway recursion at the stack limit', async () => {
    const error = await errorOf(exprFlow('($f := function($n) { 1 + $f($n + 1) }; $f(0))'))
    expect(error.code).toBe('EXPRESSION_LIMIT')
  })

  it('runs a catastrophically backtracking regular expression in linear time', async () => {
    const started = Date.now()
    expect(
      await outputsOf(exprFlow(`$match('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', /(a+)+$/)`)),
    ).toEqual({})
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('ends ** over very deep input in a flow error, and the engine keeps working', async () => {
    let deep: Record<string, unknown> = { leaf: 1 }
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    const error = await errorOf(exprFlow('$count($v.**)'), { inputs: { v: deep } })
    expect(error.code).toBe('EXPRESSION_LIMIT')
    expect(await outputsOf(exprFlow('$v.a'), { inputs: { v: { a: 5 } } })).toEqual({ result: 5 })
  })

  it('names the step of a run-time expression error', async () => {
    const yaml = flow(
      `    - { name: v, input: true }`,
      `  - assign: { result: 1 }\n  - id: boom\n    assign: { result: "{% $number('abc') %}" }`,
    )
    expect(await errorOf(yaml)).toMatchObject({
      code: 'EXPRESSION_FAILED',
      flow: 't',
      step: 'steps[1]',
      stepId: 'boom',
      details: { jsonataCode: 'D3030' },
    })
  })

  it('refuses to keep a function as a value', async () => {
    expect((await errorOf(exprFlow('function($x) { $x }'))).code).toBe('TYPE_MISMATCH')
  })
})
