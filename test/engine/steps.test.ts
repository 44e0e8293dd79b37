/** Every step kind of SPEC section 2, through the engine's public API. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LogLevel } from '../../src/engine/definition.js'
import { compile, errorOf, flow, outputsOf } from '../helpers/flows.js'

describe('if', () => {
  const yaml = flow(
    `    - { name: total, type: number, input: true }
    - { name: big, type: boolean, output: true }`,
    `  - if: "{% $total > 100 %}"
    then: [ { assign: { big: true } } ]
    else: [ { assign: { big: false } } ]`,
  )
  it('runs then when the condition holds', async () => {
    expect(await outputsOf(yaml, { inputs: { total: 101 } })).toEqual({ big: true })
  })
  it('runs else otherwise', async () => {
    expect(await outputsOf(yaml, { inputs: { total: 5 } })).toEqual({ big: false })
  })
  it('treats an absent else as nothing to do, and uses JSONata truth', async () => {
    const y = flow(
      `    - { name: v, input: true }
    - { name: hit, type: boolean, output: true, default: false }`,
      `  - if: "{% $v %}"
    then: [ { assign: { hit: true } } ]`,
    )
    for (const [v, hit] of [
      [0, false],
      ['', false],
      [[], false],
      [{}, false],
      [null, false],
      [1, true],
      ['x', true],
      [{ a: 1 }, true],
    ] as const) {
      expect(await outputsOf(y, { inputs: { v } }), JSON.stringify(v)).toEqual({ hit })
    }
  })
})

describe('switch', () => {
  const yaml = flow(
    `    - { name: kind, input: true }
    - { name: n, type: number, output: true }`,
    `  - switch:
      value: "{% $kind %}"
      cases:
        a: [ { assign: { n: 1 } } ]
        "2": [ { assign: { n: 2 } } ]
      default: [ { assign: { n: 0 } } ]`,
  )
  it('runs the matching case', async () => {
    expect(await outputsOf(yaml, { inputs: { kind: 'a' } })).toEqual({ n: 1 })
  })
  it('compares as text, so a number matches its case key', async () => {
    expect(await outputsOf(yaml, { inputs: { kind: 2 } })).toEqual({ n: 2 })
  })
  it('runs default when nothing matches', async () => {
    expect(await outputsOf(yaml, { inputs: { kind: 'zzz' } })).toEqual({ n: 0 })
    expect(await outputsOf(yaml, { inputs: { kind: { a: 1 } } })).toEqual({ n: 0 })
  })
})

describe('forEach, break and continue', () => {
  const yaml = flow(
    `    - { name: items, type: array, input: true }
    - { name: seen, type: array, output: true, default: [] }
    - { name: positions, type: array, output: true, default: [] }`,
    `  - forEach:
      items: "{% $items %}"
      as: item
      index: i
      do:
        - if: "{% $item = 'skip' %}"
          then: [ { continue: {} } ]
        - if: "{% $item = 'stop' %}"
          then: [ { break: {} } ]
        - assign: { seen: "{% $append($seen, $item) %}", positions: "{% $append($positions, $i) %}" }`,
  )
  it('runs the body once per item with the item and its index bound', async () => {
    expect(await outputsOf(yaml, { inputs: { items: ['a', 'b', 'c'] } })).toEqual({
      seen: ['a', 'b', 'c'],
      positions: [0, 1, 2],
    })
  })
  it('continue skips to the next item and break ends the loop', async () => {
    expect(await outputsOf(yaml, { inputs: { items: ['a', 'skip', 'b', 'stop', 'c'] } })).toEqual({
      seen: ['a', 'b'],
      positions: [0, 2],
    })
  })
  it('treats a single value as one item and null as none', async () => {
    const y = flow(
      `    - { name: v, input: true }
    - { name: n, type: number, output: true, default: 0 }`,
      `  - forEach: { items: "{% $v %}", as: x, do: [ { assign: { n: "{% $n + 1 %}" } } ] }`,
    )
    expect(await outputsOf(y, { inputs: { v: 'one' } })).toEqual({ n: 1 })
    expect(await outputsOf(y, { inputs: { v: null } })).toEqual({ n: 0 })
  })
  it('break in a nested loop ends only the inner loop', async () => {
    const y = flow(
      `    - { name: out, type: array, output: true, default: [] }`,
      `  - forEach:
      items: [1, 2]
      as: a
      do:
        - forEach:
            items: [1, 2, 3]
            as: b
            do:
              - if: "{% $b = 2 %}"
                then: [ { break: {} } ]
              - assign: { out: "{% $append($out, $a * 10 + $b) %}" }`,
    )
    expect(await outputsOf(y)).toEqual({ out: [11, 21] })
  })
})

describe('while', () => {
  it('loops while the condition holds', async () => {
    const y = flow(
      `    - { name: n, type: number, output: true, default: 0 }`,
      `  - while: "{% $n < 5 %}"
    do: [ { assign: { n: "{% $n + 1 %}" } } ]`,
    )
    expect(await outputsOf(y)).toEqual({ n: 5 })
  })
  it('break ends it', async () => {
    const y = flow(
      `    - { name: n, type: number, output: true, default: 0 }`,
      `  - while: true
    do:
      - assign: { n: "{% $n + 1 %}" }
      - if: "{% $n = 3 %}"
        then: [ { break: null } ]`,
    )
    expect(await outputsOf(y)).toEqual({ n: 3 })
  })
})

describe('exit', () => {
  it('ends the flow successfully with the outputs as they stand', async () => {
    const y = flow(
      `    - { name: a, type: number, output: true }`,
      `  - assign: { a: 1 }
  - forEach:
      items: [1, 2, 3]
      as: x
      do:
        - if: "{% $x = 2 %}"
          then: [ { exit: {} } ]
        - assign: { a: "{% $x %}" }
  - assign: { a: 99 }`,
    )
    expect(await outputsOf(y)).toEqual({ a: 1 })
  })
})

describe('throw', () => {
  it('ends the run with the code, message and details given, naming the step', async () => {
    const y = flow(
      `    - { name: sku, type: string, input: true }`,
      `  - assign: { result: 1 }
  - id: out-of-stock
    throw: { message: "{% 'no stock for ' & $sku %}", code: E_STOCK, details: { sku: "{% $sku %}" } }`,
    )
    expect(await errorOf(y, { inputs: { sku: 'A1' } })).toEqual({
      code: 'E_STOCK',
      message: 'no stock for A1',
      flow: 't',
      step: 'steps[1]',
      stepId: 'out-of-stock',
      details: { sku: 'A1' },
    })
  })
  it('defaults the code to FLOW_THROWN', async () => {
    const error = await errorOf(flow(`    - { name: x }`, `  - throw: { message: boom }`))
    expect(error).toMatchObject({ code: 'FLOW_THROWN', message: 'boom' })
  })
})

describe('try', () => {
  it('runs catch with the error bound, and goes on', async () => {
    const y = flow(
      `    - { name: caught, type: object, output: true }
    - { name: after, type: boolean, output: true }`,
      `  - try:
      - throw: { message: nope, code: E_X }
    catch:
      - assign: { caught: "{% $err %}" }
  - assign: { after: true }`,
    )
    expect(await outputsOf(y)).toEqual({
      caught: { code: 'E_X', message: 'nope', flow: 't', step: 'steps[0].try[0]' },
      after: true,
    })
  })
  it('does not catch budget failures', async () => {
    const y = flow(
      `    - { name: n, type: number, default: 0 }`,
      `  - try:
      - while: true
        do: [ { assign: { n: "{% $n + 1 %}" } } ]
    catch: []`,
      `limits: { maxSteps: 50 }\n`,
    )
    expect((await errorOf(y)).code).toBe('STEP_LIMIT_EXCEEDED')
  })
})

describe('context', () => {
  it('copies $context into a variable, with flow and executionId set by the engine', async () => {
    const y = flow(`    - { name: ctx, type: object, output: true }`, `  - context: { into: ctx }`)
    const outputs = await outputsOf(
      y,
      { context: { userName: 'ada', authorities: ['admin'] } },
      { executionId: 'e-1' },
    )
    expect(outputs).toEqual({
      ctx: { userName: 'ada', authorities: ['admin'], flow: 't', executionId: 'e-1' },
    })
  })
  it('binds $context in expressions, unless a variable named context hides it', async () => {
    const y = flow(
      `    - { name: who, type: string, output: true }`,
      `  - assign: { who: "{% $context.userName %}" }`,
    )
    expect(await outputsOf(y, { context: { userName: 'ada' } })).toEqual({ who: 'ada' })
  })
})

describe('log', () => {
  it('writes the message at its level, tagged with flow, step and execution id', async () => {
    const lines: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = []
    const y = flow(
      `    - { name: total, type: number, default: 3 }`,
      `  - log: { message: "{% 'paid ' & $total %}", level: warn }
  - log: { message: { structured: true } }`,
    )
    await outputsOf(
      y,
      {},
      {
        executionId: 'e-9',
        logger: { log: (level, message, fields) => lines.push({ level, message, fields }) },
      },
    )
    expect(lines).toEqual([
      {
        level: 'warn',
        message: 'paid 3',
        fields: { flow: 't', step: 'steps[0]', executionId: 'e-9' },
      },
      {
        level: 'info',
        message: '{"structured":true}',
        fields: { flow: 't', step: 'steps[1]', executionId: 'e-9' },
      },
    ])
  })
})

describe('http', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x')
        if (url.pathname === '/slow') {
          setTimeout(() => res.end('late'), 2000)
          return
        }
        if (url.pathname === '/text') {
          res.setHeader('content-type', 'text/plain')
          res.end('plain words')
          return
        }
        if (url.pathname === '/missing') {
          res.statusCode = 404
          res.setHeader('content-type', 'application/json')
          res.end('{"error":"nope"}')
          return
        }
        res.setHeader('content-type', 'application/json')
        res.setHeader('x-echo', 'yes')
        res.end(
          JSON.stringify({
            method: req.method,
            query: Object.fromEntries(url.searchParams),
            auth: req.headers.authorization ?? null,
            type: req.headers['content-type'] ?? null,
            body: body === '' ? null : (JSON.parse(body) as unknown),
          }),
        )
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const httpFlow = (step: string, extra = '') =>
    flow(
      `    - { name: base, type: string, input: true }
    - { name: answer, type: object, output: true }`,
      step,
      extra,
    )

  it('sends method, query, headers and a JSON body, and stores status, headers and parsed body', async () => {
    const y = httpFlow(`  - http:
      method: POST
      url: "{% $base & '/echo' %}"
      query: { q: "{% 1 + 1 %}" }
      headers: { authorization: "Bearer t0k" }
      body: { a: [1, 2] }
      into: answer`)
    const { answer } = await outputsOf(y, { inputs: { base } })
    expect(answer).toMatchObject({
      status: 200,
      headers: { 'x-echo': 'yes', 'content-type': 'application/json' },
      body: {
        method: 'POST',
        query: { q: '2' },
        auth: 'Bearer t0k',
        type: 'application/json',
        body: { a: [1, 2] },
      },
    })
  })
  it('keeps text bodies as text and does not fail on a non-2xx status', async () => {
    const y = httpFlow(`  - http: { url: "{% $base & '/text' %}", into: answer }`)
    expect((await outputsOf(y, { inputs: { base } })).answer).toMatchObject({
      status: 200,
      body: 'plain words',
    })
    const z = httpFlow(`  - http: { url: "{% $base & '/missing' %}", into: answer }`)
    expect((await outputsOf(z, { inputs: { base } })).answer).toMatchObject({
      status: 404,
      body: { error: 'nope' },
    })
  })
  it('times out into HTTP_TIMEOUT after timeoutMs', async () => {
    const y = httpFlow(`  - http: { url: "{% $base & '/slow' %}", timeoutMs: 100, into: answer }`)
    expect(await errorOf(y, { inputs: { base } })).toMatchObject({
      code: 'HTTP_TIMEOUT',
      step: 'steps[0]',
    })
  })
  it("is cut by the run's own time limit (FLOW_TIMEOUT)", async () => {
    const y = httpFlow(
      `  - http: { url: "{% $base & '/slow' %}", timeoutMs: 5000, into: answer }`,
      'limits: { timeoutMs: 150 }\n',
    )
    expect((await errorOf(y, { inputs: { base } })).code).toBe('FLOW_TIMEOUT')
  })
  it('fails with HTTP_FAILED on a refused connection or a bad URL', async () => {
    const y = httpFlow(`  - http: { url: "http://127.0.0.1:1/x", into: answer }`)
    expect((await errorOf(y, { inputs: { base } })).code).toBe('HTTP_FAILED')
    const z = httpFlow(`  - http: { url: "file:///etc/passwd", into: answer }`)
    expect(await errorOf(z, { inputs: { base } })).toMatchObject({
      code: 'HTTP_FAILED',
      message: expect.stringContaining('http and https') as unknown,
    })
  })
})

describe('call', () => {
  const priceOf = compile(`name: price-of
start:
  variables:
    - { name: sku, type: string, input: true, required: true }
    - { name: qty, type: number, input: true, default: 1 }
    - { name: price, type: number, output: true }
    - { name: hidden, type: number, default: 7 }
steps:
  - assign: { price: "{% ($sku = 'apple' ? 0.5 : 2) * $qty %}" }
`)
  const caller = compile(`name: caller
start:
  variables:
    - { name: p, type: object, output: true }
steps:
  - call: { flow: price-of, inputs: { sku: apple, qty: "3" }, into: p }
`)
  const registry = new Map([
    ['price-of', priceOf],
    ['caller', caller],
  ])
  it('runs the other flow with converted inputs and stores its outputs only', async () => {
    expect(await outputsOf(caller, {}, { registry })).toEqual({ p: { price: 1.5 } })
  })
  it("reports the called flow's input errors at the call step", async () => {
    const bad = compile(`name: bad
steps:
  - call: { flow: price-of, inputs: { qty: 2 } }
`)
    expect(await errorOf(bad, {}, { registry })).toMatchObject({
      code: 'INPUT_REQUIRED',
      flow: 'bad',
      step: 'steps[0]',
    })
  })
  it('stops chains deeper than the call-depth cap', async () => {
    const chain = new Map<string, ReturnType<typeof compile>>()
    for (let i = 0; i < 5; i++) {
      chain.set(`f${i}`, compile(`name: f${i}\nsteps:\n  - call: { flow: f${i + 1} }\n`))
    }
    chain.set('f5', compile(`name: f5\nsteps:\n  - assign: { result: done }\n`))
    expect((await errorOf(chain.get('f0')!, {}, { registry: chain, maxCallDepth: 3 })).code).toBe(
      'CALL_DEPTH_EXCEEDED',
    )
    expect(await outputsOf(chain.get('f0')!, {}, { registry: chain, maxCallDepth: 5 })).toEqual({})
  })
})
