import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runFlow } from '../../../src/engine/interpreter.js'
import { loadFlowText } from '../../../src/project/load-flow.js'

const text = readFileSync(new URL('flow.json', import.meta.url), 'utf8')
const load = loadFlowText('test/flows/if-else/flow.json', text)
if (load.kind === 'invalid') throw new Error(JSON.stringify(load.diagnostics))
const flow = load.flow.compiled

describe('scenario: if / else', () => {
  it.each([
    [150, { tier: 'gold', shipping: 0 }],
    [50, { tier: 'silver', shipping: 2.5 }],
    [10, { tier: 'bronze', shipping: 5 }],
    ['75', { tier: 'silver', shipping: 2.5 }],
  ])('classifies a total of %j', async (total, outputs) => {
    expect(await runFlow(flow, { inputs: { total } })).toMatchObject({ kind: 'completed', outputs })
  })

  it('refuses to run without its required input', async () => {
    const result = await runFlow(flow, { inputs: {} })
    expect(result).toEqual({
      kind: 'failed',
      error: {
        code: 'INPUT_REQUIRED',
        message: "Missing required input 'total'",
        flow: 'if-else',
        details: { input: 'total' },
      },
    })
  })
})
