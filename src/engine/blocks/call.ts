/**
 * `call`: runs another flow of the same project with the given inputs (converted to its
 * declared types) and stores its outputs. Calls share the caller's budgets (time, steps) and
 * may nest only so deep; cycles between flows are refused when the project is loaded.
 *
 * @example
 * - call: { flow: price-of, inputs: { sku: "{% $sku %}" }, into: price }
 */
import { isPlainObject } from '../convert.js'
import { FlowFailure } from '../flow-error.js'
import type { Block, Signal } from './block.js'

export const callBlock: Block<'call'> = {
  compile(document, c) {
    const body = document.call as { flow: string; inputs?: unknown; into?: unknown }
    const at = [...c.path, 'call']
    c.calls.push({ flow: body.flow, path: [...at, 'flow'] })
    return {
      kind: 'call',
      path: c.pathText,
      id: c.id,
      flow: body.flow,
      inputs: body.inputs === undefined ? undefined : c.template(body.inputs, [...at, 'inputs']),
      into: body.into === undefined ? undefined : c.target(body.into, [...at, 'into']),
    }
  },

  async execute(step, frame): Promise<Signal> {
    const inputs = step.inputs ? await step.inputs.evaluate(frame.scope) : {}
    if (inputs !== undefined && !isPlainObject(inputs)) {
      throw new FlowFailure('TYPE_MISMATCH', `The inputs of a call must be an object`)
    }
    const outputs = await frame.callFlow(step.flow, inputs ?? {})
    if (step.into !== undefined) frame.assign(step.into, outputs)
    return 'next'
  },
}
