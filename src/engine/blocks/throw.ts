/**
 * `throw`: ends the run with an error of your own: a message, a code (FLOW_THROWN when
 * omitted) and details. A `try` around it can catch it.
 *
 * @example
 * - throw: { message: "{% 'no stock for ' & $sku %}", code: E_STOCK, details: { sku: "{% $sku %}" } }
 */
import { FlowFailure } from '../flow-error.js'
import { isPlainObject } from '../convert.js'
import type { Block } from './block.js'

export const throwBlock: Block<'throw'> = {
  compile(document, c) {
    const body = document.throw as { message: unknown; code?: unknown; details?: unknown }
    const at = [...c.path, 'throw']
    return {
      kind: 'throw',
      path: c.pathText,
      id: c.id,
      message: c.template(body.message, [...at, 'message']),
      code: body.code === undefined ? undefined : c.template(body.code, [...at, 'code']),
      details:
        body.details === undefined ? undefined : c.template(body.details, [...at, 'details']),
    }
  },

  async execute(step, frame) {
    const message = await step.message.evaluate(frame.scope)
    const code = step.code ? await step.code.evaluate(frame.scope) : undefined
    const details = step.details ? await step.details.evaluate(frame.scope) : undefined
    throw new FlowFailure(
      typeof code === 'string' && code !== '' ? code : 'FLOW_THROWN',
      typeof message === 'string' ? message : JSON.stringify(message ?? 'error'),
      details === undefined ? undefined : isPlainObject(details) ? details : { value: details },
    )
  },
}
