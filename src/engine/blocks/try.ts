/**
 * `try`: runs its steps; when one fails, runs `catch` with the error bound as `$<as>`
 * (`$err` by default: `{code, message, flow, step, stepId, details}`). Budget failures (time
 * limit, step cap, call depth, cancellation) are not caught: they always end the run.
 *
 * @example
 * - try:
 *     - http: { url: "https://api.example.com/x", into: answer }
 *   catch:
 *     - assign: { answer: null }
 *   as: err
 */
import { FlowFailure } from '../flow-error.js'
import type { Block } from './block.js'

const uncatchable = new Set([
  'FLOW_TIMEOUT',
  'STEP_LIMIT_EXCEEDED',
  'CALL_DEPTH_EXCEEDED',
  'FLOW_CANCELLED',
  'INTERNAL',
])

export const tryBlock: Block<'try'> = {
  compile(document, c) {
    const as =
      document.as === undefined ? 'err' : (c.binding(document.as, [...c.path, 'as']) ?? 'err')
    if (document.as === undefined) c.binding(as, [...c.path, 'try'])
    return {
      kind: 'try',
      path: c.pathText,
      id: c.id,
      try: c.steps(document.try, [...c.path, 'try']),
      catch: c.steps(document.catch ?? [], [...c.path, 'catch'], { binds: [as] }),
      as,
    }
  },

  async execute(step, frame) {
    try {
      return await frame.runSteps(step.try)
    } catch (error) {
      if (!(error instanceof FlowFailure) || uncatchable.has(error.code)) throw error
      frame.scope[step.as] = error.toFlowError(frame.flow.name)
      try {
        return await frame.runSteps(step.catch)
      } finally {
        delete frame.scope[step.as]
      }
    }
  },
}
